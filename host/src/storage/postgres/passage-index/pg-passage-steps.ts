// The passage index's statements on PostgreSQL that take the client of the transaction they belong to: the index's
// own writes, and a job's steps (pg-job-passage-steps.ts), so the swap commits with the document's state change.
import { spaceKey } from '../../space-key.js';
import type { JobRun } from '../../port/document-job-repository.js';
import type { IndexedPassage } from '../../port/passage-index-repository.js';
import type { PgJobPassageSteps, StepClient } from '../pg-job-passage-steps.js';
import { indexFtsRows, unindexFtsRows } from './pg-fts-index.js';

export type Queryable = StepClient;

/** The shared version every change of searchable passages bumps (the engine's caches trust it). */
export const PASSAGES_VERSION = 'pasajes';

const HIDE_VISIBLE = `INSERT INTO cerebro_hidden_passages (id, space, document_id, run)
  SELECT p.id, p.space, p.document_id, NULL FROM cerebro_passages p
  WHERE p.space = $1 AND p.document_id = $2 AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = p.id)`;

export class PgPassageSteps implements PgJobPassageSteps {
  readonly backend = 'postgresql';

  async bump(db: Queryable): Promise<void> {
    await db.query(
      `INSERT INTO change_versions (name, version) VALUES ($1, 1)
       ON CONFLICT (name) DO UPDATE SET version = change_versions.version + 1`,
      [PASSAGES_VERSION],
    );
  }

  /** Stores passages (hidden in `run` when given) and indexes them; returns their ids in order. */
  async insert(
    db: Queryable,
    space: string,
    documentId: string,
    passages: readonly IndexedPassage[],
    run?: number,
  ): Promise<number[]> {
    if (passages.length === 0) return [];
    const r = await db.query<{ id: number }>(
      `INSERT INTO cerebro_passages (space, document_id, ord, page, headings, text, ocr)
       SELECT $1, $2, t.ord, t.page, t.headings, t.text, t.ocr
       FROM unnest($3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::bigint[])
         WITH ORDINALITY AS t(ord, page, headings, text, ocr, n)
       ORDER BY t.n RETURNING id`,
      [
        space,
        documentId,
        passages.map((p) => p.ord),
        passages.map((p) => p.page),
        passages.map((p) => JSON.stringify(p.headings)),
        passages.map((p) => p.text),
        passages.map((p) => (p.ocr ? 1 : 0)),
      ],
    );
    // Identity values are drawn in the order rows are inserted (ORDER BY above): ascending ids follow the passages.
    const ids = r.rows.map((row) => row.id).sort((a, b) => a - b);
    const key = spaceKey(space);
    await indexFtsRows(
      db,
      passages.map((p, i) => ({ id: ids[i]!, spaceKey: key, headingTerms: p.headingTerms, bodyTerms: p.terms })),
    );
    if (run !== undefined)
      await db.query(
        `INSERT INTO cerebro_hidden_passages (id, space, document_id, run)
         SELECT id, $2, $3, $4 FROM unnest($1::bigint[]) AS t(id)`,
        [ids, space, documentId, run],
      );
    return ids;
  }

  /** Deletes passages by id from storage, the full-text index and the hidden list. */
  async deletePassages(db: Queryable, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await unindexFtsRows(db, ids);
    await db.query('DELETE FROM cerebro_passages WHERE id = ANY($1::bigint[])', [ids]);
    await db.query('DELETE FROM cerebro_hidden_passages WHERE id = ANY($1::bigint[])', [ids]);
  }

  /** Hides the document's searchable passages and reveals the run's; returns the document's passage count. */
  async swapIn(db: Queryable, run: JobRun): Promise<number> {
    const r = await db.query<{ n: number }>('SELECT count(*) AS n FROM cerebro_hidden_passages WHERE run = $1', [
      run.runId,
    ]);
    await db.query(HIDE_VISIBLE, [run.space, run.id]);
    await db.query('DELETE FROM cerebro_hidden_passages WHERE run = $1', [run.runId]);
    await this.bump(db);
    return r.rows[0]!.n;
  }

  /** Hides the document's searchable passages and stores `passages` searchable in their place; returns their count. */
  async swapInPrepared(db: Queryable, run: JobRun, passages: readonly IndexedPassage[]): Promise<number> {
    await db.query(HIDE_VISIBLE, [run.space, run.id]);
    await this.insert(db, run.space, run.id, passages);
    await this.bump(db);
    return passages.length;
  }

  /** Hides every passage of the document, runs included, for the purge. */
  async hideDocument(db: Queryable, space: string, documentId: string): Promise<void> {
    await db.query(HIDE_VISIBLE, [space, documentId]);
    await this.abandonDocumentRuns(db, space, documentId);
    await this.bump(db);
  }

  /** Leaves every run of the document to the purge. */
  async abandonDocumentRuns(db: Queryable, space: string, documentId: string): Promise<void> {
    await db.query(
      'UPDATE cerebro_hidden_passages SET run = NULL WHERE space = $1 AND document_id = $2 AND run IS NOT NULL',
      [space, documentId],
    );
  }

  /** Leaves to the purge the runs of documents no process is indexing any more. */
  async abandonOrphanRuns(db: Queryable): Promise<void> {
    await db.query(
      `UPDATE cerebro_hidden_passages SET run = NULL WHERE run IS NOT NULL AND NOT EXISTS (SELECT 1 FROM cerebro_documents d
         WHERE d.space = cerebro_hidden_passages.space AND d.id = cerebro_hidden_passages.document_id AND d.state = 'processing')`,
    );
  }

  /** Deletes the document's passages at once; returns their ids. Their vectors go after the caller's commit. */
  async deleteDocument(db: Queryable, space: string, documentId: string): Promise<number[]> {
    const r = await db.query<{ id: number }>('SELECT id FROM cerebro_passages WHERE space = $1 AND document_id = $2', [
      space,
      documentId,
    ]);
    const ids = r.rows.map((row) => row.id);
    await this.deletePassages(db, ids);
    await db.query('DELETE FROM cerebro_hidden_passages WHERE space = $1 AND document_id = $2', [space, documentId]);
    await this.bump(db);
    return ids;
  }
}
