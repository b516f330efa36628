import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type { InlineOriginalRepository } from '../port/inline-original-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

export const SQLITE_REMOVE_UNNAMED = `DELETE FROM cerebro_inline_originals WHERE created_at < ?
  AND NOT EXISTS (SELECT 1 FROM cerebro_documents d WHERE d.path = cerebro_inline_originals.stored)`;

/** Small originals in `cerebro_inline_originals`, one statement each (no transaction: one row, written once). */
@injectable()
export class SqliteInlineOriginalRepository implements InlineOriginalRepository {
  private readonly s;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.s = preparedOnUse({
      insert: () =>
        db.prepare<[string, Uint8Array, number]>(
          'INSERT INTO cerebro_inline_originals (stored, content, created_at) VALUES (?, ?, ?)',
        ),
      select: () =>
        db.prepare<[string], Buffer>('SELECT content FROM cerebro_inline_originals WHERE stored = ?').pluck(),
      remove: () => db.prepare<[string]>('DELETE FROM cerebro_inline_originals WHERE stored = ?'),
      removeUnnamed: () => db.prepare<[number]>(SQLITE_REMOVE_UNNAMED),
    });
  }

  async put(stored: string, content: Uint8Array, at: number): Promise<void> {
    this.s.insert.run(stored, content, at);
  }

  async get(stored: string): Promise<Buffer | null> {
    return this.s.select.get(stored) ?? null;
  }

  async remove(stored: string): Promise<void> {
    this.s.remove.run(stored);
  }

  async removeUnnamed(before: number): Promise<number> {
    return this.s.removeUnnamed.run(before).changes;
  }
}
