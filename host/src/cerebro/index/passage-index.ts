// Passage storage and BM25 retrieval over SQLite FTS5, strictly per space.
import type { SqliteDatabase } from '../../storage/database.js';
import type { PreparedPassage } from '../extract/prepare.js';
import { queryTermGroups } from '../text/analyzer.js';
import { matchExpression } from './fts-query.js';
import { spaceKey } from './space-key.js';

export interface PassageRecord {
  id: number;
  documentId: string;
  documentName: string;
  ord: number;
  page: number | null;
  headings: string[];
  text: string;
}

export interface SearchHit extends PassageRecord {
  /** Positive BM25 score (higher is better). */
  bm25: number;
  /** Fused score when hybrid retrieval ran, else equal to bm25. */
  score: number;
  /** 1-based rank in the final list. */
  rank: number;
}

export interface SpaceStats {
  documents: number;
  ready: number;
  passages: number;
  chars: number;
}

interface PassageRow {
  id: number;
  document_id: string;
  name: string;
  ord: number;
  page: number | null;
  headings: string;
  text: string;
}

const toRecord = (r: PassageRow): PassageRecord => ({
  id: r.id, documentId: r.document_id, documentName: r.name, ord: r.ord, page: r.page,
  headings: JSON.parse(r.headings) as string[], text: r.text,
});

export class PassageIndex {
  private readonly stmt;
  private totalRows: number | null = null;

  constructor(private readonly db: SqliteDatabase) {
    this.stmt = {
      insertPassage: db.prepare(
        'INSERT INTO cerebro_passages (space, document_id, ord, page, headings, text) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      insertFts: db.prepare('INSERT INTO cerebro_fts (rowid, space_key, terms) VALUES (?, ?, ?)'),
      passageIds: db.prepare('SELECT id FROM cerebro_passages WHERE space = ? AND document_id = ?').pluck(),
      deleteFts: db.prepare('DELETE FROM cerebro_fts WHERE rowid = ?'),
      deletePassages: db.prepare('DELETE FROM cerebro_passages WHERE space = ? AND document_id = ?'),
      match: db.prepare(
        "SELECT rowid AS id, rank FROM cerebro_fts WHERE cerebro_fts MATCH ? AND rank MATCH 'bm25(0.0, 1.0)' ORDER BY rank LIMIT ?",
      ),
      passage: db.prepare(
        `SELECT p.id, p.document_id, d.name, p.ord, p.page, p.headings, p.text FROM cerebro_passages p
         JOIN cerebro_documents d ON d.space = p.space AND d.id = p.document_id WHERE p.id = ? AND p.space = ?`,
      ),
      termDocs: db.prepare('SELECT doc FROM cerebro_fts_vocab WHERE term = ?').pluck(),
      countRows: db.prepare('SELECT count(*) FROM cerebro_passages').pluck(),
      stats: db.prepare(
        `SELECT count(*) AS documents, coalesce(sum(state = 'ready'), 0) AS ready,
                coalesce(sum(passages), 0) AS passages, coalesce(sum(chars), 0) AS chars
         FROM cerebro_documents WHERE space = ?`,
      ),
    };
  }

  /** Ids of a document's passages (for the vector index to follow deletions). */
  passageIds(space: string, documentId: string): number[] {
    return this.stmt.passageIds.all(space, documentId) as number[];
  }

  /**
   * Replaces all passages of a document; call inside a transaction together with the document's state change so a
   * reader sees either the old version or the new one. Returns the new passage ids in order.
   */
  replaceDocument(space: string, documentId: string, passages: readonly PreparedPassage[]): number[] {
    this.deleteDocument(space, documentId);
    const key = spaceKey(space);
    const ids: number[] = [];
    for (const p of passages) {
      const id = Number(this.stmt.insertPassage.run(space, documentId, p.ord, p.page, JSON.stringify(p.headings), p.text).lastInsertRowid);
      this.stmt.insertFts.run(id, key, p.terms);
      ids.push(id);
    }
    this.totalRows = null;
    return ids;
  }

  /** Removes a document's passages from storage and the full-text index; returns the removed ids. */
  deleteDocument(space: string, documentId: string): number[] {
    const ids = this.passageIds(space, documentId);
    for (const id of ids) this.stmt.deleteFts.run(id);
    this.stmt.deletePassages.run(space, documentId);
    if (ids.length) this.totalRows = null;
    return ids;
  }

  /** BM25 top-k of the space for an analysed question. */
  searchGroups(space: string, groups: readonly string[][], k: number): SearchHit[] {
    const expr = matchExpression(space, groups);
    if (!expr || k <= 0) return [];
    const rows = this.stmt.match.all(expr, k) as { id: number; rank: number }[];
    const hits: SearchHit[] = [];
    for (const row of rows) {
      const p = this.stmt.passage.get(row.id, space) as PassageRow | undefined;
      if (!p) continue; // defensive: the space token already restricted the match
      hits.push({ ...toRecord(p), bm25: -row.rank, score: -row.rank, rank: hits.length + 1 });
    }
    return hits;
  }

  search(space: string, question: string, k: number): SearchHit[] {
    return this.searchGroups(space, queryTermGroups(question), k);
  }

  passage(space: string, id: number): PassageRecord | null {
    const p = this.stmt.passage.get(id, space) as PassageRow | undefined;
    return p ? toRecord(p) : null;
  }

  /**
   * Inverse document frequency of each term group (the rarest alternative counts), from the index's vocabulary.
   * Used to weigh how much of a question a sentence covers.
   */
  idf(groups: readonly string[][]): number[] {
    this.totalRows ??= this.stmt.countRows.get() as number;
    const n = Math.max(1, this.totalRows);
    const idfOf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
    return groups.map((alts) => {
      let df = 0;
      for (const t of alts) df = Math.max(df, (this.stmt.termDocs.get(t) as number | undefined) ?? 0);
      // A word found nowhere (a synonym, a verb form the text does not use) must not swamp the words that are
      // found: it weighs half as much as the rarest indexed word.
      return df === 0 ? idfOf(1) / 2 : idfOf(df);
    });
  }

  stats(space: string): SpaceStats {
    return this.stmt.stats.get(space) as SpaceStats;
  }
}
