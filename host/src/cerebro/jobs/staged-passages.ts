// The passages of document versions still being indexed (table cerebro_staged_passages), one run at a time.
import type { SqliteDatabase } from '../../storage/database.js';
import type { PreparedPassage } from '../extract/prepare.js';

/** One indexing run: a version of a document of a space. */
export interface StagedRun { space: string; id: string; version: number }

export interface StagedText { ord: number; headings: string[]; text: string }

export class StagedPassages {
  private readonly stmt;

  constructor(private readonly db: SqliteDatabase) {
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO cerebro_staged_passages (space, document_id, version, ord, page, headings, text, heading_terms, terms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      texts: db.prepare(
        `SELECT ord, headings, text FROM cerebro_staged_passages
         WHERE space = ? AND document_id = ? AND version = ? AND ord > ? ORDER BY ord LIMIT ?`,
      ),
      discard: db.prepare('DELETE FROM cerebro_staged_passages WHERE space = ? AND document_id = ? AND version = ?'),
      discardAll: db.prepare('DELETE FROM cerebro_staged_passages'),
    };
  }

  /** Stores one batch, in one short transaction. */
  add(run: StagedRun, batch: readonly PreparedPassage[]): void {
    this.db.transaction(() => {
      for (const p of batch) {
        this.stmt.insert.run(run.space, run.id, run.version, p.ord, p.page, JSON.stringify(p.headings), p.text, p.headingTerms, p.terms);
      }
    })();
  }

  /** Up to `limit` passages after `afterOrd`, in order (for the embedder, batch by batch). */
  texts(run: StagedRun, afterOrd: number, limit: number): StagedText[] {
    return (this.stmt.texts.all(run.space, run.id, run.version, afterOrd, limit) as { ord: number; headings: string; text: string }[])
      .map((r) => ({ ord: r.ord, headings: JSON.parse(r.headings) as string[], text: r.text }));
  }

  discard(run: StagedRun): void {
    this.stmt.discard.run(run.space, run.id, run.version);
  }

  /** At start-up: every staged run was interrupted, and its job starts over. */
  discardAll(): number {
    return this.stmt.discardAll.run().changes;
  }
}
