// The engine's passage index on PostgreSQL: passages in `cerebro_passages`, FTS5's postings, rows and totals in the
// engine's own tables (pg-fts-index.ts), candidates ranked with FTS5's BM25 (pg-bm25-matcher.ts), runs hidden in
// `cerebro_hidden_passages`. Every count is the one the SQLite repository reads from FTS5, so the engine ranks
// alike on both backends (bm25-parity.test.ts). A job's passage steps run in the document repository's transaction,
// on its client (`PgPassageSteps`).
import { spaceKey } from '../../space-key.js';
import type { JobRun } from '../../port/document-job-repository.js';
import type {
  DocumentPassagePage,
  IndexedPassage,
  MatchedRow,
  MatchPlan,
  PassageIndexRepository,
  PassageRecord,
  PassageSearchKind,
  RunPassage,
  SpaceStats,
} from '../../port/passage-index-repository.js';
import type { VectorRepository } from '../../port/vector-repository.js';
import { type DocumentPassageRow, type PassageRow, toDocumentPassage, toPassageRecord } from '../../passage-row.js';
import { inTransaction, type Pool } from '../pg-driver.js';
import { pgVectorSearch } from '../pg-vector-support.js';
import { PgBm25Matcher } from './pg-bm25-matcher.js';
import { spaceTermPassages, termPassages } from './pg-fts-index.js';
import type { PgJobPassageSteps } from '../pg-job-passage-steps.js';
import { PASSAGES_VERSION, PgPassageSteps, type Queryable } from './pg-passage-steps.js';

export class PgPassageIndexRepository implements PassageIndexRepository {
  private readonly matcher: PgBm25Matcher;
  /** The steps a job's transaction runs, on the document repository's client. */
  readonly steps = new PgPassageSteps();

  constructor(private readonly pool: Pool) {
    this.matcher = new PgBm25Matcher(pool);
  }

  // ---- search

  match(plan: MatchPlan): Promise<MatchedRow[]> {
    return this.matcher.match(plan);
  }

  async passages(space: string, ids: readonly number[]): Promise<PassageRecord[]> {
    if (ids.length === 0) return [];
    const r = await this.pool.query<PassageRow>(
      `SELECT p.id, p.document_id, d.name, p.ord, p.page, p.headings, p.text FROM cerebro_passages p
       JOIN cerebro_documents d ON d.space = p.space AND d.id = p.document_id
       WHERE p.id = ANY($1::bigint[]) AND p.space = $2
         AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = p.id)`,
      [ids, space],
    );
    const byId = new Map(r.rows.map((row) => [row.id, row]));
    const out: PassageRecord[] = [];
    for (const id of ids) {
      const row = byId.get(id);
      if (row) out.push(toPassageRecord(row));
    }
    return out;
  }

  async contentVersion(): Promise<number> {
    const r = await this.pool.query<{ version: number }>('SELECT version FROM change_versions WHERE name = $1', [
      PASSAGES_VERSION,
    ]);
    return r.rows[0]?.version ?? 0;
  }

  async spacePassages(space: string): Promise<number> {
    const r = await this.pool.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM cerebro_passages WHERE space = $1)
            - (SELECT count(*) FROM cerebro_hidden_passages WHERE space = $1) AS n`,
      [space],
    );
    return r.rows[0]!.n;
  }

  async indexPassages(): Promise<number> {
    const r = await this.pool.query<{ n: number }>('SELECT count(*) AS n FROM cerebro_passages');
    return r.rows[0]!.n;
  }

  termPassages(term: string): Promise<number> {
    return termPassages(this.pool, term);
  }

  spaceTermPassages(space: string, term: string, cap: number): Promise<number> {
    return spaceTermPassages(this.pool, spaceKey(space), term, cap);
  }

  /** Every `step`-th searchable passage in id order, as SQLite's: the same sample on both backends. */
  async lengthSample(space: string, limit: number): Promise<{ text: string; headings: string[] }[]> {
    if (limit <= 0) return [];
    const r = await this.pool.query<{ text: string; headings: string }>(
      `SELECT p.text, p.headings FROM (
         SELECT id, row_number() OVER (ORDER BY id) - 1 AS n, count(*) OVER () AS total FROM cerebro_passages c
         WHERE space = $1 AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = c.id)
       ) s JOIN cerebro_passages p ON p.id = s.id
       WHERE s.n % ((s.total + $2 - 1) / $2) = 0 ORDER BY s.id LIMIT $2`,
      [space, limit],
    );
    return r.rows.map((row) => ({ text: row.text, headings: JSON.parse(row.headings) as string[] }));
  }

  async languagePassages(space: string): Promise<{ lang: string; passages: number }[]> {
    const r = await this.pool.query<{ lang: string; passages: number }>(
      `SELECT lang, sum(passages) AS passages FROM cerebro_documents
       WHERE space = $1 AND state = 'ready' AND lang IS NOT NULL GROUP BY lang ORDER BY lang COLLATE "C"`,
      [space],
    );
    return r.rows;
  }

  // ---- the document viewer

  documentPassages(space: string, documentId: string, offset: number, limit: number): Promise<DocumentPassagePage> {
    // One snapshot for the page and its count: REPEATABLE READ, read only.
    return inTransaction(this.pool, async (client) => {
      await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const visible = `FROM cerebro_passages p WHERE p.space = $1 AND p.document_id = $2
        AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = p.id)`;
      const total = await client.query<{ n: number }>(`SELECT count(*) AS n ${visible}`, [space, documentId]);
      const rows = await client.query<DocumentPassageRow>(
        `SELECT p.id, p.ord, p.page, p.headings, p.text, p.ocr ${visible} ORDER BY p.ord, p.id LIMIT $3 OFFSET $4`,
        [space, documentId, limit, offset],
      );
      return { total: total.rows[0]!.n, passages: rows.rows.map(toDocumentPassage) };
    });
  }

  async stats(space: string): Promise<SpaceStats> {
    const r = await this.pool.query<SpaceStats>(
      `SELECT count(*) AS documents, coalesce(sum(CASE WHEN state = 'ready' THEN 1 ELSE 0 END), 0) AS ready,
              coalesce(sum(passages), 0) AS passages, coalesce(sum(chars), 0) AS chars
       FROM cerebro_documents WHERE space = $1`,
      [space],
    );
    return r.rows[0]!;
  }

  // ---- writes

  replaceDocument(space: string, documentId: string, passages: readonly IndexedPassage[]): Promise<number[]> {
    return inTransaction(this.pool, async (client) => {
      await this.steps.deleteDocument(client, space, documentId);
      const ids = await this.steps.insert(client, space, documentId, passages);
      await this.steps.bump(client);
      return ids;
    });
  }

  addHidden(run: JobRun, passages: readonly IndexedPassage[]): Promise<number[]> {
    return inTransaction(this.pool, (client) => this.steps.insert(client, run.space, run.id, passages, run.runId));
  }

  async runPassages(run: JobRun, afterOrd: number, limit: number): Promise<RunPassage[]> {
    const r = await this.pool.query<{ id: number; ord: number; headings: string; text: string }>(
      `SELECT p.id, p.ord, p.headings, p.text FROM cerebro_hidden_passages h JOIN cerebro_passages p ON p.id = h.id
       WHERE h.run = $1 AND p.ord > $2 ORDER BY p.ord LIMIT $3`,
      [run.runId, afterOrd, limit],
    );
    return r.rows.map((row) => ({ ...row, headings: JSON.parse(row.headings) as string[] }));
  }

  async abandonRun(run: JobRun): Promise<void> {
    await this.pool.query('UPDATE cerebro_hidden_passages SET run = NULL WHERE run = $1', [run.runId]);
  }

  /**
   * Purges passages in one transaction, then deletes their vectors (another repository, maybe another store):
   * passage ids are never reused on PostgreSQL (an identity column), so a vector a crash left between the two
   * belongs to no passage, and a search reads passages back by id.
   */
  async purge(limit: number, vectors: VectorRepository | null): Promise<number[]> {
    const ids = await inTransaction(this.pool, async (client) => {
      // Several processes may purge at once: each takes rows the others have not locked.
      const r = await client.query<{ id: number }>(
        'SELECT id FROM cerebro_hidden_passages WHERE run IS NULL LIMIT $1 FOR UPDATE SKIP LOCKED',
        [limit],
      );
      const ids = r.rows.map((row) => row.id);
      await this.steps.deletePassages(client, ids);
      if (ids.length) await this.steps.bump(client);
      return ids;
    });
    if (ids.length) await vectors?.delete(ids);
    return ids;
  }

  async passageIds(space: string, documentId: string): Promise<number[]> {
    const r = await this.pool.query<{ id: number }>(
      'SELECT id FROM cerebro_passages WHERE space = $1 AND document_id = $2 ORDER BY id',
      [space, documentId],
    );
    return r.rows.map((row) => row.id);
  }

  /**
   * The steps a job's transaction runs on the document repository's client. The vectors of a removed document's
   * passages are deleted by that repository once the removal committed (of every dimension: `passagesDeleted`);
   * the purge deletes the others' with `purge`.
   */
  jobSteps(_vectors: VectorRepository | null): PgJobPassageSteps {
    return this.steps;
  }

  /** Runs `work` on a client in one transaction (the contract's stand-in for the document repository's). */
  transaction<T>(work: (client: Queryable) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work);
  }

  /** pgvector when the server offers the extension, otherwise exact similarity in the engine. */
  async searchKind(): Promise<PassageSearchKind> {
    return { index: 'postgresql_bm25', vectors: await pgVectorSearch(this.pool) };
  }

  async close(): Promise<void> {}
}
