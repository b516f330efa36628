// The engine's passage index on SQLite: passages in `cerebro_passages`, their terms in the FTS5 table `cerebro_fts`,
// runs hidden in `cerebro_hidden_passages`. The statements are synchronous (better-sqlite3); the port's methods wrap
// them, and the job steps run them inside the document repository's transaction. A large space's match can run on
// search threads (search-pool.ts), each with its own read-only connection.
import { INLINE_MATCH_PASSAGES } from './inline-match.js';
import { spaceKey } from '../../space-key.js';
import type { SqliteDatabase } from '../../database.js';
import { type DocumentPassageRow, type PassageRow, toDocumentPassage, toPassageRecord } from '../../passage-row.js';
import type { JobRun } from '../../port/document-job-repository.js';
import type {
  DocumentPassagePage,
  IndexedPassage,
  MatchedRow,
  MatchPlan,
  PassageIndexRepository,
  PassageRecord,
  PassageSearchKind,
  PlanMatcher,
  RunPassage,
  SpaceStats,
} from '../../port/passage-index-repository.js';
import type { VectorRepository } from '../../port/vector-repository.js';
import { SqliteChangeVersions } from '../change-versions.js';
import { SqliteVectorStore } from '../vector-store.js';
import { MATCH_SQL, runMatchPlan } from './match-plan-sql.js';
import { createSearchPool, type SearchPool } from './search-pool.js';
import type { SqliteJobPassageSteps } from './sqlite-job-steps.js';
import { preparedOnUse } from '../prepared-on-use.js';

/** The shared version every change of searchable passages bumps (storage/port/change-version-repository.ts). */
const PASSAGES_VERSION = 'pasajes';

export interface SqliteSearchOptions {
  /** Threads running the full-text match of questions (default 0: on the calling thread; needs a database file). */
  threads?: number;
  /** Spaces with fewer passages are matched on the calling thread even with search threads. */
  inlinePassages?: number;
}

/** The sync vector deletes of a purge or a deletion, which commit with the passages (ids may be reused). */
function vectorDeletes(vectors: VectorRepository | null): (ids: number[]) => void {
  if (!vectors) return () => undefined;
  const store = (vectors as { store?: unknown }).store;
  if (!(store instanceof SqliteVectorStore))
    throw new Error('un índice de pasajes en SQLite guarda sus vectores en la misma base de datos SQLite');
  return (ids) => store.delete(ids);
}

export class SqlitePassageIndexRepository implements PassageIndexRepository {
  private readonly stmt;
  private readonly versions: SqliteChangeVersions;
  private readonly pool: SearchPool | null;
  private readonly inlinePassages: number;

  constructor(
    private readonly db: SqliteDatabase,
    options: SqliteSearchOptions = {},
  ) {
    this.versions = new SqliteChangeVersions(db);
    this.pool = (options.threads ?? 0) > 0 && !db.memory ? createSearchPool(db.name, options.threads!) : null;
    this.inlinePassages = options.inlinePassages ?? INLINE_MATCH_PASSAGES;
    this.stmt = preparedOnUse({
      insertPassage: () =>
        db.prepare(
          'INSERT INTO cerebro_passages (space, document_id, ord, page, headings, text, ocr) VALUES (?, ?, ?, ?, ?, ?, ?)',
        ),
      insertFts: () => db.prepare('INSERT INTO cerebro_fts (rowid, space_key, heading, body) VALUES (?, ?, ?, ?)'),
      passageIds: () => db.prepare('SELECT id FROM cerebro_passages WHERE space = ? AND document_id = ?').pluck(),
      insertHidden: () =>
        db.prepare('INSERT INTO cerebro_hidden_passages (id, space, document_id, run) VALUES (?, ?, ?, ?)'),
      runPassages: () =>
        db.prepare(
          `SELECT p.id, p.ord, p.headings, p.text FROM cerebro_hidden_passages h JOIN cerebro_passages p ON p.id = h.id
         WHERE h.run = ? AND p.ord > ? ORDER BY p.ord LIMIT ?`,
        ),
      countRun: () => db.prepare('SELECT count(*) FROM cerebro_hidden_passages WHERE run = ?').pluck(),
      hideVisible: () =>
        db.prepare(
          `INSERT INTO cerebro_hidden_passages (id, space, document_id, run)
         SELECT p.id, p.space, p.document_id, NULL FROM cerebro_passages p
         WHERE p.space = ? AND p.document_id = ? AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = p.id)`,
        ),
      revealRun: () => db.prepare('DELETE FROM cerebro_hidden_passages WHERE run = ?'),
      abandonRun: () => db.prepare('UPDATE cerebro_hidden_passages SET run = NULL WHERE run = ?'),
      abandonDocumentRuns: () =>
        db.prepare(
          'UPDATE cerebro_hidden_passages SET run = NULL WHERE space = ? AND document_id = ? AND run IS NOT NULL',
        ),
      abandonOrphanRuns: () =>
        db.prepare(
          `UPDATE cerebro_hidden_passages SET run = NULL WHERE run IS NOT NULL AND NOT EXISTS (SELECT 1 FROM cerebro_documents d
           WHERE d.space = cerebro_hidden_passages.space AND d.id = cerebro_hidden_passages.document_id AND d.state = 'processing')`,
        ),
      purgeable: () => db.prepare('SELECT id FROM cerebro_hidden_passages WHERE run IS NULL LIMIT ?').pluck(),
      deletePassage: () => db.prepare('DELETE FROM cerebro_passages WHERE id = ?'),
      deleteHidden: () => db.prepare('DELETE FROM cerebro_hidden_passages WHERE id = ?'),
      deleteDocumentHidden: () => db.prepare('DELETE FROM cerebro_hidden_passages WHERE space = ? AND document_id = ?'),
      deleteFts: () => db.prepare('DELETE FROM cerebro_fts WHERE rowid = ?'),
      deletePassages: () => db.prepare('DELETE FROM cerebro_passages WHERE space = ? AND document_id = ?'),
      match: () => db.prepare(MATCH_SQL),
      passage: () =>
        db.prepare(
          `SELECT p.id, p.document_id, d.name, p.ord, p.page, p.headings, p.text FROM cerebro_passages p
         JOIN cerebro_documents d ON d.space = p.space AND d.id = p.document_id WHERE p.id = ? AND p.space = ?
           AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = p.id)`,
        ),
      termDocs: () => db.prepare('SELECT doc FROM cerebro_fts_vocab WHERE term = ?').pluck(),
      // Hidden passages (an indexing run not yet swapped in, or waiting for purge) are left out: counted, they made a
      // space's statistics depend on when the first question came (the counts are kept while the space barely
      // changes). One primary-key probe per matched row, at most the cap plus the hidden ones.
      spaceTermDocs: () =>
        db
          .prepare(
            `SELECT count(*) FROM (SELECT rowid FROM cerebro_fts WHERE cerebro_fts MATCH ?
             AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = cerebro_fts.rowid) LIMIT ?)`,
          )
          .pluck(),
      // Every `step`-th searchable passage in the order they were stored (ids): spread over the whole space and the
      // same for the same passages. A plain LIMIT read the passages in the index's order, by document id, a random
      // UUID, so the mean length, and every BM25 score of a space over the sample's size, changed from run to run.
      sample: () =>
        db.prepare(
          `SELECT p.text, p.headings FROM (
           SELECT id, row_number() OVER (ORDER BY id) - 1 AS n, count(*) OVER () AS total FROM cerebro_passages
           WHERE space = :space AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = cerebro_passages.id)
         ) s JOIN cerebro_passages p ON p.id = s.id
         WHERE s.n % ((s.total + :limit - 1) / :limit) = 0 ORDER BY s.id LIMIT :limit`,
        ),
      countRows: () => db.prepare('SELECT count(*) FROM cerebro_passages').pluck(),
      // Searchable passages: every hidden one is a passage of its space, so two index counts, not a probe per row.
      countSpace: () =>
        db
          .prepare(
            `SELECT (SELECT count(*) FROM cerebro_passages WHERE space = :space)
                - (SELECT count(*) FROM cerebro_hidden_passages WHERE space = :space)`,
          )
          .pluck(),
      languages: () =>
        db.prepare(
          `SELECT lang, sum(passages) AS passages FROM cerebro_documents
         WHERE space = ? AND state = 'ready' AND lang IS NOT NULL GROUP BY lang`,
        ),
      documentPassages: () =>
        db.prepare(
          `SELECT p.id, p.ord, p.page, p.headings, p.text, p.ocr FROM cerebro_passages p
         WHERE p.space = ? AND p.document_id = ? AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = p.id)
         ORDER BY p.ord, p.id LIMIT ? OFFSET ?`,
        ),
      countDocumentPassages: () =>
        db
          .prepare(
            `SELECT count(*) FROM cerebro_passages p WHERE p.space = ? AND p.document_id = ?
             AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = p.id)`,
          )
          .pluck(),
      stats: () =>
        db.prepare(
          `SELECT count(*) AS documents, coalesce(sum(state = 'ready'), 0) AS ready,
                coalesce(sum(passages), 0) AS passages, coalesce(sum(chars), 0) AS chars
         FROM cerebro_documents WHERE space = ?`,
        ),
    });
  }

  // ---- search

  /** A small space is matched here: its match costs less than handing it to a thread that may be busy. */
  match(plan: MatchPlan): Promise<MatchedRow[]> {
    const matcher: PlanMatcher | null = plan.spacePassages < this.inlinePassages ? null : this.pool;
    return matcher ? matcher.match(plan) : Promise.resolve(runMatchPlan(this.stmt.match, plan));
  }

  async passages(space: string, ids: readonly number[]): Promise<PassageRecord[]> {
    const out: PassageRecord[] = [];
    for (const id of ids) {
      const p = this.stmt.passage.get(id, space) as PassageRow | undefined;
      if (p) out.push(toPassageRecord(p));
    }
    return out;
  }

  async contentVersion(): Promise<number> {
    return this.versions.read(PASSAGES_VERSION);
  }

  async spacePassages(space: string): Promise<number> {
    return this.stmt.countSpace.get({ space }) as number;
  }

  async indexPassages(): Promise<number> {
    return this.stmt.countRows.get() as number;
  }

  async termPassages(term: string): Promise<number> {
    return (this.stmt.termDocs.get(term) as number | undefined) ?? 0;
  }

  async spaceTermPassages(space: string, term: string, cap: number): Promise<number> {
    const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;
    const expression = `{space_key} : ${quote(spaceKey(space))} AND {heading body} : ${quote(term)}`;
    return this.stmt.spaceTermDocs.get(expression, cap) as number;
  }

  async lengthSample(space: string, limit: number): Promise<{ text: string; headings: string[] }[]> {
    if (limit <= 0) return [];
    return (this.stmt.sample.all({ space, limit }) as { text: string; headings: string }[]).map((r) => ({
      text: r.text,
      headings: JSON.parse(r.headings) as string[],
    }));
  }

  async languagePassages(space: string): Promise<{ lang: string; passages: number }[]> {
    return this.stmt.languages.all(space) as { lang: string; passages: number }[];
  }

  async stats(space: string): Promise<SpaceStats> {
    return this.stmt.stats.get(space) as SpaceStats;
  }

  // ---- the document viewer

  async documentPassages(
    space: string,
    documentId: string,
    offset: number,
    limit: number,
  ): Promise<DocumentPassagePage> {
    // read-only transaction: the count and the page from one snapshot
    return this.db.transaction(() => ({
      total: this.stmt.countDocumentPassages.get(space, documentId) as number,
      passages: (this.stmt.documentPassages.all(space, documentId, limit, offset) as DocumentPassageRow[]).map(
        toDocumentPassage,
      ),
    }))();
  }

  // ---- writes

  /** Stores passages (hidden in `run` when given) in the passage table and the full-text index. */
  private insert(space: string, documentId: string, passages: readonly IndexedPassage[], run?: number): number[] {
    const key = spaceKey(space);
    return passages.map((p) => {
      const id = Number(
        this.stmt.insertPassage.run(space, documentId, p.ord, p.page, JSON.stringify(p.headings), p.text, p.ocr ? 1 : 0)
          .lastInsertRowid,
      );
      this.stmt.insertFts.run(id, key, p.headingTerms, p.terms);
      if (run !== undefined) this.stmt.insertHidden.run(id, space, documentId, run);
      return id;
    });
  }

  /** Removes a document's passages from storage and the full-text index; returns the removed ids. */
  private deleteDocumentNow(space: string, documentId: string): number[] {
    const ids = this.stmt.passageIds.all(space, documentId) as number[];
    for (const id of ids) this.stmt.deleteFts.run(id);
    this.stmt.deletePassages.run(space, documentId);
    this.stmt.deleteDocumentHidden.run(space, documentId);
    this.versions.bump(PASSAGES_VERSION);
    return ids;
  }

  async replaceDocument(space: string, documentId: string, passages: readonly IndexedPassage[]): Promise<number[]> {
    return this.db
      .transaction(() => {
        this.deleteDocumentNow(space, documentId);
        const ids = this.insert(space, documentId, passages);
        this.versions.bump(PASSAGES_VERSION);
        return ids;
      })
      .immediate();
  }

  async addHidden(run: JobRun, passages: readonly IndexedPassage[]): Promise<number[]> {
    return this.db.transaction(() => this.insert(run.space, run.id, passages, run.runId)).immediate();
  }

  async runPassages(run: JobRun, afterOrd: number, limit: number): Promise<RunPassage[]> {
    return (
      this.stmt.runPassages.all(run.runId, afterOrd, limit) as {
        id: number;
        ord: number;
        headings: string;
        text: string;
      }[]
    ).map((r) => ({ ...r, headings: JSON.parse(r.headings) as string[] }));
  }

  async abandonRun(run: JobRun): Promise<void> {
    this.stmt.abandonRun.run(run.runId);
  }

  async purge(limit: number, vectors: VectorRepository | null): Promise<number[]> {
    const alsoDelete = vectorDeletes(vectors);
    return this.db
      .transaction(() => {
        const ids = this.stmt.purgeable.all(limit) as number[];
        for (const id of ids) {
          this.stmt.deleteFts.run(id);
          this.stmt.deletePassage.run(id);
          this.stmt.deleteHidden.run(id);
        }
        alsoDelete(ids);
        if (ids.length) this.versions.bump(PASSAGES_VERSION);
        return ids;
      })
      .immediate();
  }

  async passageIds(space: string, documentId: string): Promise<number[]> {
    return this.stmt.passageIds.all(space, documentId) as number[];
  }

  jobSteps(vectors: VectorRepository | null): SqliteJobPassageSteps {
    const alsoDelete = vectorDeletes(vectors);
    const { stmt, versions } = this;
    return {
      backend: 'sqlite',
      // Only ids move, so this is quick whatever the document's size.
      swapIn: (run) => {
        const count = stmt.countRun.get(run.runId) as number;
        stmt.hideVisible.run(run.space, run.id);
        stmt.revealRun.run(run.runId);
        versions.bump(PASSAGES_VERSION);
        return count;
      },
      swapInPrepared: (run, passages) => {
        stmt.hideVisible.run(run.space, run.id);
        this.insert(run.space, run.id, passages);
        versions.bump(PASSAGES_VERSION);
        return passages.length;
      },
      hideDocument: (space, documentId) => {
        stmt.hideVisible.run(space, documentId);
        stmt.abandonDocumentRuns.run(space, documentId);
        versions.bump(PASSAGES_VERSION);
      },
      abandonDocumentRuns: (space, documentId) => {
        stmt.abandonDocumentRuns.run(space, documentId);
      },
      abandonOrphanRuns: () => {
        stmt.abandonOrphanRuns.run();
      },
      deleteDocument: (space, documentId) => alsoDelete(this.deleteDocumentNow(space, documentId)),
    };
  }

  async searchKind(): Promise<PassageSearchKind> {
    return { index: 'sqlite_fts5', vectors: 'sqlite_vec' };
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}
