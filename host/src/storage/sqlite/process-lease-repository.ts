import { inject, injectable } from 'tsyringe';
import { SqliteDatabaseToken } from './database-token.js';
import type { SqliteDatabase } from '../database.js';
import type { ProcessLeaseRepository } from '../port/process-lease-repository.js';
import { SqliteProcessLeases } from './process-leases.js';

/** Named leases in the `process_leases` table (the statements of `SqliteProcessLeases`, prepared once). */
@injectable()
export class SqliteProcessLeaseRepository implements ProcessLeaseRepository {
  private readonly leases: SqliteProcessLeases;

  constructor(@inject(SqliteDatabaseToken) db: SqliteDatabase) {
    this.leases = new SqliteProcessLeases(db);
  }

  async acquire(name: string, owner: string, now: number, ttlMs: number): Promise<boolean> {
    return this.leases.acquire(name, owner, now, ttlMs);
  }

  async release(name: string, owner: string): Promise<void> {
    this.leases.release(name, owner);
  }
}
