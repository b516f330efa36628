// Named leases on PostgreSQL: storage/sqlite/process-leases.ts's compare-and-set, one conditional upsert (the row
// lock of ON CONFLICT DO UPDATE makes two racers take turns, and the second sees the first's owner).
import { inject, injectable } from 'tsyringe';
import type { ProcessLeaseRepository } from '../port/process-lease-repository.js';
import type { Pool } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

@injectable()
export class PgProcessLeaseRepository implements ProcessLeaseRepository {
  constructor(@inject(PgPoolToken) private readonly pool: Pool) {}

  async acquire(name: string, owner: string, now: number, ttlMs: number): Promise<boolean> {
    const r = await this.pool.query(
      `INSERT INTO process_leases (name, owner, until) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until
         WHERE process_leases.owner = excluded.owner OR process_leases.until <= $4`,
      [name, owner, now + ttlMs, now],
    );
    return r.rowCount === 1;
  }

  async release(name: string, owner: string): Promise<void> {
    await this.pool.query('DELETE FROM process_leases WHERE name = $1 AND owner = $2', [name, owner]);
  }
}
