import type { DependencyContainer } from 'tsyringe';
import type { HostRoute } from '../http/route.js';
import { accountRoutes } from './account-routes.js';
import { adminListingRoutes } from './admin-listing-routes.js';
import { adminRoutes } from './admin-routes.js';
import { tokenRoutes } from './token-routes.js';
import { auditRoutes } from '../audit/audit-routes.js';
import { ownSpaceRoutes } from './own-space-routes.js';
import { adminAllowanceRoutes } from './admin-allowance-routes.js';
import { memberRoutes } from '../members/member-routes.js';

/** The host's own API routes besides health and OpenAPI. */
export function coreRoutes(container: DependencyContainer): HostRoute[] {
  return [
    ...accountRoutes(container),
    ...ownSpaceRoutes(container),
    ...tokenRoutes(container),
    ...adminRoutes(container),
    ...adminListingRoutes(container),
    ...adminAllowanceRoutes(container),
    ...auditRoutes(container),
    ...memberRoutes(container),
  ];
}
