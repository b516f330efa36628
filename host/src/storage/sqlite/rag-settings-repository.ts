import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type { RagSettingsRepository } from '../port/rag-settings-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

/** The spaces' question settings over `cerebro_space_config` (migration 0003_rag). */
@injectable()
export class SqliteRagSettingsRepository implements RagSettingsRepository {
  private readonly s;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.s = preparedOnUse({
      config: () => db.prepare<[string], { config: string }>('SELECT config FROM cerebro_space_config WHERE space = ?'),
      save: () =>
        db.prepare(
          'INSERT INTO cerebro_space_config (space, config, updated_at) VALUES (?, ?, ?) ON CONFLICT (space) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at',
        ),
    });
  }

  async settings(space: string): Promise<string | null> {
    return this.s.config.get(space)?.config ?? null;
  }

  async save(space: string, json: string, at: string): Promise<void> {
    this.s.save.run(space, json, at);
  }
}
