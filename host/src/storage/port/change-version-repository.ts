import { createToken } from '@cerebro/sdk';

/**
 * Version counters in the shared database, one per kind of change (`directorio`, `contenido:<space>`): a process
 * that changes something bumps its counter; every process compares the counter with the one it last saw before it
 * trusts a cache. A plain row, so any database engine can keep it.
 *
 * Guarantees: `bump` is atomic (two processes bumping at once both count); a `read` that starts after a `bump`
 * resolved sees that bump or a later one, from any process.
 */
export interface ChangeVersionRepository {
  bump(name: string): Promise<void>;
  /** The current version of `name` (0 when it never changed). */
  read(name: string): Promise<number>;
  /**
   * The same read answered at once, offered only by a backend inside the process (SQLite): the access memo's check
   * of each event-loop turn then costs no promise, and a memo hit stays synchronous from the turn's first request.
   */
  readNow?(name: string): number;
}

export const ChangeVersionRepositoryToken = createToken<ChangeVersionRepository>('host:change-version-repository');
