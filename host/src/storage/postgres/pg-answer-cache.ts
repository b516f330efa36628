// The answer cache on PostgreSQL: storage/sqlite/answer-cache-repository.ts's statements on `cerebro_answer_cache`.
import type { AnswerCacheRepository, StoredAnswer } from '../port/answer-cache-repository.js';
import type { Pool } from './pg-driver.js';

export class PgAnswerCacheRepository implements AnswerCacheRepository {
  constructor(private readonly pool: Pool) {}

  async take(space: string, key: string, now: string): Promise<StoredAnswer | null> {
    // One statement: the hit is counted on the row that is served, only while it has not expired.
    const r = await this.pool.query<{ answer: string; created_at: string }>(
      `UPDATE cerebro_answer_cache SET hits = hits + 1 WHERE space = $1 AND question_key = $2 AND expires_at > $3
       RETURNING answer, created_at`,
      [space, key, now],
    );
    const row = r.rows[0];
    return row ? { answer: row.answer, createdAt: row.created_at } : null;
  }

  async put(space: string, key: string, answer: string, createdAt: string, expiresAt: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO cerebro_answer_cache (space, question_key, answer, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (space, question_key) DO UPDATE SET answer = excluded.answer, created_at = excluded.created_at,
         expires_at = excluded.expires_at, hits = 0`,
      [space, key, answer, createdAt, expiresAt],
    );
  }

  async clear(space: string): Promise<number> {
    return (await this.pool.query('DELETE FROM cerebro_answer_cache WHERE space = $1', [space])).rowCount ?? 0;
  }

  async purgeExpired(now: string): Promise<number> {
    return (await this.pool.query('DELETE FROM cerebro_answer_cache WHERE expires_at <= $1', [now])).rowCount ?? 0;
  }
}
