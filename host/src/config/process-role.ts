/**
 * What one `cerebro serve` process does when several share a data folder (`--rol`): `todo` serves HTTP and indexes
 * (one process, as always), `api` serves HTTP and never indexes (documents it receives are queued for a worker),
 * `worker` claims and runs indexing jobs (it listens too, for health, readiness and metrics).
 */
export type ProcessRole = 'todo' | 'api' | 'worker';

export const PROCESS_ROLES: readonly ProcessRole[] = ['todo', 'api', 'worker'];

export function isProcessRole(value: string): value is ProcessRole {
  return (PROCESS_ROLES as readonly string[]).includes(value);
}

/** Whether a process of this role claims indexing jobs and purges. */
export function roleIndexes(role: ProcessRole): boolean {
  return role !== 'api';
}
