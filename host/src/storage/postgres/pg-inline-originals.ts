import { inject, injectable } from 'tsyringe';
import type { InlineOriginalRepository } from '../port/inline-original-repository.js';
import { pgQuery, type Pool } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

/** Small originals in `cerebro_inline_originals` (bytea), on PostgreSQL. */
@injectable()
export class PgInlineOriginalRepository implements InlineOriginalRepository {
  constructor(@inject(PgPoolToken) private readonly pool: Pool) {}

  async put(stored: string, content: Uint8Array, at: number): Promise<void> {
    await pgQuery(this.pool, 'INSERT INTO cerebro_inline_originals (stored, content, created_at) VALUES ($1, $2, $3)', [
      stored,
      Buffer.from(content.buffer, content.byteOffset, content.byteLength),
      at,
    ]);
  }

  async get(stored: string): Promise<Buffer | null> {
    const r = await pgQuery<{ content: Buffer }>(
      this.pool,
      'SELECT content FROM cerebro_inline_originals WHERE stored = $1',
      [stored],
    );
    return r.rows[0]?.content ?? null;
  }

  async remove(stored: string): Promise<void> {
    await pgQuery(this.pool, 'DELETE FROM cerebro_inline_originals WHERE stored = $1', [stored]);
  }

  async removeUnnamed(before: number): Promise<number> {
    const r = await pgQuery(
      this.pool,
      `DELETE FROM cerebro_inline_originals o WHERE o.created_at < $1
        AND NOT EXISTS (SELECT 1 FROM cerebro_documents d WHERE d.path = o.stored)`,
      [before],
    );
    return r.rowCount ?? 0;
  }
}
