import { createToken } from '@cerebro/sdk';

/**
 * Named leases in the shared database: a task that must run in one process at a time (the passage purge) takes the
 * lease first. A lease is held until `until`; its owner renews it while it works, and a lease whose owner died is
 * taken over once it has expired, never before.
 *
 * Guarantees: `acquire` is one atomic compare-and-set, so of two owners racing for a free or expired lease exactly
 * one gets it.
 */
export interface ProcessLeaseRepository {
  /** Takes or renews `name` for `owner` until `now + ttlMs`; false while another owner holds it unexpired. */
  acquire(name: string, owner: string, now: number, ttlMs: number): Promise<boolean>;
  /** Gives `name` up if `owner` holds it. */
  release(name: string, owner: string): Promise<void>;
}

export const ProcessLeaseRepositoryToken = createToken<ProcessLeaseRepository>('host:process-lease-repository');
