import type { DependencyContainer } from 'tsyringe';
import type { HostRoute } from '../http/route.js';

/** The core API routes (table A and B of the contract). Filled by the access-control and Cerebro issues. */
export function coreRoutes(_container: DependencyContainer): HostRoute[] {
  return [];
}
