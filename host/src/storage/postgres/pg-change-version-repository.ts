// Change versions on PostgreSQL: storage/sqlite/change-versions.ts's statements; a bump is one atomic upsert.
import { inject, injectable } from 'tsyringe';
import type { ChangeVersionRepository } from '../port/change-version-repository.js';
import { type Pool, pgQuery } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

@injectable()
export class PgChangeVersionRepository implements ChangeVersionRepository {
  constructor(@inject(PgPoolToken) private readonly pool: Pool) {}

  async bump(name: string): Promise<void> {
    // On the caller's transaction when there is one: a bump commits with the change it announces.
    await pgQuery(
      this.pool,
      `INSERT INTO change_versions (name, version) VALUES ($1, 1)
         ON CONFLICT (name) DO UPDATE SET version = change_versions.version + 1`,
      [name],
    );
  }

  async read(name: string): Promise<number> {
    const r = await pgQuery<{ version: number }>(this.pool, 'SELECT version FROM change_versions WHERE name = $1', [
      name,
    ]);
    return r.rows[0]?.version ?? 0;
  }
}
