import type { SqliteDatabase } from '../database.js';
import { preparedOnUse } from './prepared-on-use.js';

/**
 * The synchronous SQLite form of the named leases, used by `SqliteProcessLeaseRepository` (the port every new caller
 * takes: storage/port/process-lease-repository.ts) and by the indexing runner's purge until it moves there.
 *
 * Named leases in the shared database: a task that must run in one process at a time (the passage purge) takes the
 * lease first. A lease is held until `until`; its owner renews it while it works, and a lease whose owner died is
 * taken over once it has expired, never before.
 */
export interface ProcessLeases {
  /** Takes or renews `name` for `owner` until `now + ttlMs`; false while another owner holds it unexpired. */
  acquire(name: string, owner: string, now: number, ttlMs: number): boolean;
  /** Gives `name` up if `owner` holds it. */
  release(name: string, owner: string): void;
}

export class SqliteProcessLeases implements ProcessLeases {
  private readonly stmts;

  constructor(db: SqliteDatabase) {
    this.stmts = preparedOnUse({
      acquire: () =>
        db.prepare<[string, string, number, number]>(
          `INSERT INTO process_leases (name, owner, until) VALUES (?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until
           WHERE process_leases.owner = excluded.owner OR process_leases.until <= ?`,
        ),
      release: () => db.prepare<[string, string]>('DELETE FROM process_leases WHERE name = ? AND owner = ?'),
    });
  }

  acquire(name: string, owner: string, now: number, ttlMs: number): boolean {
    return this.stmts.acquire.run(name, owner, now + ttlMs, now).changes === 1;
  }

  release(name: string, owner: string): void {
    this.stmts.release.run(name, owner);
  }
}
