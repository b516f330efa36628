import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type { AnswerCacheRepository, StoredAnswer } from '../port/answer-cache-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

/** The answer cache over `cerebro_answer_cache` (migration 0003_rag). */
@injectable()
export class SqliteAnswerCacheRepository implements AnswerCacheRepository {
  private readonly s;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.s = preparedOnUse({
      get: () =>
        db.prepare<[string, string, string], { answer: string; created_at: string }>(
          'SELECT answer, created_at FROM cerebro_answer_cache WHERE space = ? AND question_key = ? AND expires_at > ?',
        ),
      hit: () => db.prepare('UPDATE cerebro_answer_cache SET hits = hits + 1 WHERE space = ? AND question_key = ?'),
      put: () =>
        db.prepare(
          `INSERT INTO cerebro_answer_cache (space, question_key, answer, created_at, expires_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (space, question_key) DO UPDATE SET answer = excluded.answer, created_at = excluded.created_at, expires_at = excluded.expires_at, hits = 0`,
        ),
      clear: () => db.prepare('DELETE FROM cerebro_answer_cache WHERE space = ?'),
      purge: () => db.prepare('DELETE FROM cerebro_answer_cache WHERE expires_at <= ?'),
    });
  }

  async take(space: string, key: string, now: string): Promise<StoredAnswer | null> {
    const row = this.s.get.get(space, key, now);
    if (!row) return null;
    this.s.hit.run(space, key);
    return { answer: row.answer, createdAt: row.created_at };
  }

  async put(space: string, key: string, answer: string, createdAt: string, expiresAt: string): Promise<void> {
    this.s.put.run(space, key, answer, createdAt, expiresAt);
  }

  async clear(space: string): Promise<number> {
    return this.s.clear.run(space).changes;
  }

  async purgeExpired(now: string): Promise<number> {
    return this.s.purge.run(now).changes;
  }
}
