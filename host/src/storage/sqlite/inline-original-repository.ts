import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type { InlineOriginalRepository } from '../port/inline-original-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

/** Small originals in `cerebro_inline_originals`, one statement each (no transaction: one row, written once). */
@injectable()
export class SqliteInlineOriginalRepository implements InlineOriginalRepository {
  private readonly s;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.s = preparedOnUse({
      insert: () =>
        db.prepare<[string, Uint8Array]>('INSERT INTO cerebro_inline_originals (stored, content) VALUES (?, ?)'),
      select: () =>
        db.prepare<[string], Buffer>('SELECT content FROM cerebro_inline_originals WHERE stored = ?').pluck(),
      remove: () => db.prepare<[string]>('DELETE FROM cerebro_inline_originals WHERE stored = ?'),
    });
  }

  async put(stored: string, content: Uint8Array): Promise<void> {
    this.s.insert.run(stored, content);
  }

  async get(stored: string): Promise<Buffer | null> {
    return this.s.select.get(stored) ?? null;
  }

  async remove(stored: string): Promise<void> {
    this.s.remove.run(stored);
  }
}
