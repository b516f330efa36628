// The spaces' question settings on PostgreSQL: storage/sqlite/rag-settings-repository.ts's statements.
import type { RagSettingsRepository } from '../port/rag-settings-repository.js';
import type { Pool } from './pg-driver.js';

export class PgRagSettingsRepository implements RagSettingsRepository {
  constructor(private readonly pool: Pool) {}

  async settings(space: string): Promise<string | null> {
    const r = await this.pool.query<{ config: string }>('SELECT config FROM cerebro_space_config WHERE space = $1', [
      space,
    ]);
    return r.rows[0]?.config ?? null;
  }

  async save(space: string, json: string, at: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO cerebro_space_config (space, config, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (space) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at`,
      [space, json, at],
    );
  }
}
