// Passage storage and BM25 retrieval over SQLite FTS5, strictly per space.
import { type ChangeVersions, SqliteChangeVersions } from '../../storage/sqlite/change-versions.js';
import type { SqliteDatabase } from '../../storage/database.js';
import type { PreparedPassage } from '../extract/prepare.js';
import { exactQueryWords, LANGUAGES, queryTermGroups, type Language } from '../text/analyzer.js';
import { matchExpression } from './fts-query.js';
import { INLINE_MATCH_PASSAGES } from './inline-match.js';
import { passageLength, spaceBm25 } from './space-bm25.js';
import { spaceKey } from './space-key.js';
import { idfOf, SpaceTermStats } from './space-stats.js';
import { BACKGROUND_PRIOR, type BackgroundPrior, backgroundShare, blendedCounts } from '../text/background-prior.js';

/** BM25 weight of heading terms relative to body terms. */
const HEADING_WEIGHT = 2;

/**
 * A query term estimated to occur in more passages of the space than both of these is left out of the match when
 * rarer terms remain (see pruneCommon). Small spaces are never pruned: there every term is cheap.
 */
const PRUNE_MIN_PASSAGES = 5000;
const PRUNE_SHARE = 0.1;

/**
 * Fewest candidates the conjunctive match hands over for ranking with the space's own statistics (see
 * `searchGroups`). On the shared QA set 20 and 40 gave the same top 5; 10 lost passages. Each candidate is read and
 * its words counted again.
 * Isolation (bench/respuestas/tenant-leak.mjs: the debian-handbook space indexed alone, then beside the rest of the
 * shared and project sets in the same database): with one match on any word, ranked by every space's statistics,
 * 5 of its 73 top-5 lists, 2 answer-or-decline decisions and 3 answers changed; with one match per word
 * (`MatchPlan.each`) 40 deep, none.
 */
const MIN_CANDIDATES = 20;

/**
 * Each word's match takes this many times MIN_CANDIDATES: a passage holding two of the question's words, each
 * moderately often, may be in neither word's first 20 (one handbook question of the shared set's dev split lost its
 * passage there); at twice as many, recall@5 was the same as with the match on any word, on both splits.
 */
const WORD_DEPTH_SHARE = 2;

/** Most index-wide term counts remembered between content changes (a question looks up a handful). */
const MAX_CACHED_TERMS = 50_000;

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

/** One indexing run of a document of a space; `runId` is unique to the run (a re-run of the same version gets another). */
export interface IndexRun {
  space: string;
  id: string;
  runId: number;
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
  id: r.id,
  documentId: r.document_id,
  documentName: r.name,
  ord: r.ord,
  page: r.page,
  headings: JSON.parse(r.headings) as string[],
  text: r.text,
});

/** Hidden passages are skipped as the ranked rows come out, so LIMIT still yields k searchable ones. */
export const MATCH_SQL = `SELECT rowid AS id, rank FROM cerebro_fts WHERE cerebro_fts MATCH ? AND rank MATCH 'bm25(0.0, ${HEADING_WEIGHT}, 1.0)'
  AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = cerebro_fts.rowid) ORDER BY rank LIMIT ?`;

/**
 * The full-text part of one search, as data: the conjunctive match (every question word; null with fewer than two
 * words), then, when it has fewer than k rows, one match per question word (`each`; empty when the question has no
 * content word), each taking its word's best `wordDepth` passages.
 * One match per word rather than one on any word: FTS5 ranks a match by the statistics of the whole index, every
 * space together, so on any word a neighbour's documents decided which of the space's passages became candidates (a
 * word common next door made the passages holding it lose their place). Within one word's match the order depends
 * on the passage alone (how often it says the word, how long it is), and the space's own statistics (space-bm25.ts)
 * then rank the union.
 * Running it is the expensive part of a question in a large space, so it can run on another thread
 * (search-pool.ts) while planning and reading the passages stay here.
 */
export interface MatchPlan {
  all: string | null;
  each: string[];
  k: number;
  /** Rows the conjunctive match takes. */
  depth: number;
  /** Rows each word's match takes. */
  wordDepth: number;
}

export interface MatchedRow {
  id: number;
  rank: number;
}

/** Where a MatchPlan runs: here (`runMatchPlan` over this connection) or on a search thread. */
export interface PlanMatcher {
  match(plan: MatchPlan): Promise<MatchedRow[]>;
}

/**
 * Runs a plan with a prepared MATCH_SQL statement: conjunctive rows first, then each word's best rows, taken in turn
 * (every word's first, then every word's second…) so that no word's passages crowd out another's.
 */
export function runMatchPlan(match: { all(...args: unknown[]): unknown[] }, plan: MatchPlan): MatchedRow[] {
  let rows: MatchedRow[] = [];
  if (plan.all) rows = match.all(plan.all, plan.depth) as MatchedRow[];
  // Enough passages with every word: the matches on each word, the costly ones in a large space, are not needed.
  if (rows.length >= plan.k) return rows;
  if (plan.each.length === 0) return [];
  return mergeWordMatches(
    rows,
    plan.each.map((expression) => match.all(expression, plan.wordDepth) as MatchedRow[]),
    plan.wordDepth,
  );
}

/**
 * The conjunctive rows, then each word's rows taken in turn (every word's first, then every word's second…), each
 * passage once. Shared by every backend's matcher, so they order candidates alike.
 */
export function mergeWordMatches(conjunctive: MatchedRow[], lists: MatchedRow[][], wordDepth: number): MatchedRow[] {
  const rows = [...conjunctive];
  const seen = new Set(rows.map((r) => r.id));
  for (let at = 0; at < wordDepth; at++)
    for (const list of lists) {
      const r = list[at];
      if (r && !seen.has(r.id)) {
        seen.add(r.id);
        rows.push(r);
      }
    }
  return rows;
}

/** Share of a space's passages a language needs before questions are searched in it too. */
export const MIN_LANGUAGE_SHARE = 0.05;

/**
 * Weight of a question word no passage holds, relative to the rarest indexed word. Such a word is the strongest sign
 * that the documents do not talk about it ("¿cómo instalo Nextcloud?" over a manual without Nextcloud). Measured on
 * the labelled questions of `npm run bench -- respuestas`, calibrated to decline >= 90 % of the unanswerable ones:
 * at 0.5 (before) 26 of 92 answerable questions were answered with their key, at 1 35, at 2 43, at 3 43. Splitting
 * absent words by the hunspell-es dictionary (ordinary words lighter than unknown names) did worse (28-41).
 */
const ABSENT_TERM_WEIGHT = 2;

/** The shared version every change of searchable passages bumps (storage/port/change-version-repository.ts). */
const PASSAGES_VERSION = 'pasajes';

export class PassageIndex {
  private readonly stmt;
  private totalRows: number | null = null;
  private readonly termDocsCache = new Map<string, number>();
  private readonly spaceCounts = new Map<string, number>();
  /** Spaces with fewer passages are matched on this thread even when search threads exist (CEREBRO_SEARCH_INLINE_PASSAGES). */
  inlineMatchPassages = INLINE_MATCH_PASSAGES;
  /** `languages(space)`, cached: asked on every question, it changes only when a document's passages come or go. */
  private readonly spaceLanguages = new Map<string, Language[]>();
  private readonly termStats: SpaceTermStats;
  /**
   * The caches above describe what every process sharing the database wrote: each change of searchable passages
   * bumps a shared version, and a cache is trusted only while the version is the one last seen (read at most once
   * per synchronous turn).
   */
  private readonly versions: ChangeVersions;
  private seenVersion = -1;
  private checkedThisTurn = false;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly prior: BackgroundPrior = BACKGROUND_PRIOR,
  ) {
    this.termStats = new SpaceTermStats(db, passageLength);
    this.versions = new SqliteChangeVersions(db);
    this.stmt = {
      insertPassage: db.prepare(
        'INSERT INTO cerebro_passages (space, document_id, ord, page, headings, text) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      insertFts: db.prepare('INSERT INTO cerebro_fts (rowid, space_key, heading, body) VALUES (?, ?, ?, ?)'),
      passageIds: db.prepare('SELECT id FROM cerebro_passages WHERE space = ? AND document_id = ?').pluck(),
      insertHidden: db.prepare('INSERT INTO cerebro_hidden_passages (id, space, document_id, run) VALUES (?, ?, ?, ?)'),
      runPassages: db.prepare(
        `SELECT p.id, p.ord, p.headings, p.text FROM cerebro_hidden_passages h JOIN cerebro_passages p ON p.id = h.id
         WHERE h.run = ? AND p.ord > ? ORDER BY p.ord LIMIT ?`,
      ),
      countRun: db.prepare('SELECT count(*) FROM cerebro_hidden_passages WHERE run = ?').pluck(),
      hideVisible: db.prepare(
        `INSERT INTO cerebro_hidden_passages (id, space, document_id, run)
         SELECT p.id, p.space, p.document_id, NULL FROM cerebro_passages p
         WHERE p.space = ? AND p.document_id = ? AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = p.id)`,
      ),
      revealRun: db.prepare('DELETE FROM cerebro_hidden_passages WHERE run = ?'),
      abandonRun: db.prepare('UPDATE cerebro_hidden_passages SET run = NULL WHERE run = ?'),
      abandonDocumentRuns: db.prepare(
        'UPDATE cerebro_hidden_passages SET run = NULL WHERE space = ? AND document_id = ? AND run IS NOT NULL',
      ),
      abandonOrphanRuns: db.prepare(
        `UPDATE cerebro_hidden_passages SET run = NULL WHERE run IS NOT NULL AND NOT EXISTS (SELECT 1 FROM cerebro_documents d
           WHERE d.space = cerebro_hidden_passages.space AND d.id = cerebro_hidden_passages.document_id AND d.state = 'processing')`,
      ),
      purgeable: db.prepare('SELECT id FROM cerebro_hidden_passages WHERE run IS NULL LIMIT ?').pluck(),
      deletePassage: db.prepare('DELETE FROM cerebro_passages WHERE id = ?'),
      deleteHidden: db.prepare('DELETE FROM cerebro_hidden_passages WHERE id = ?'),
      deleteDocumentHidden: db.prepare('DELETE FROM cerebro_hidden_passages WHERE space = ? AND document_id = ?'),
      deleteFts: db.prepare('DELETE FROM cerebro_fts WHERE rowid = ?'),
      deletePassages: db.prepare('DELETE FROM cerebro_passages WHERE space = ? AND document_id = ?'),
      match: db.prepare(MATCH_SQL),
      passage: db.prepare(
        `SELECT p.id, p.document_id, d.name, p.ord, p.page, p.headings, p.text FROM cerebro_passages p
         JOIN cerebro_documents d ON d.space = p.space AND d.id = p.document_id WHERE p.id = ? AND p.space = ?
           AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = p.id)`,
      ),
      termDocs: db.prepare('SELECT doc FROM cerebro_fts_vocab WHERE term = ?').pluck(),
      countRows: db.prepare('SELECT count(*) FROM cerebro_passages').pluck(),
      countSpace: db.prepare('SELECT count(*) FROM cerebro_passages WHERE space = ?').pluck(),
      languages: db.prepare(
        `SELECT lang, sum(passages) AS passages FROM cerebro_documents
         WHERE space = ? AND state = 'ready' AND lang IS NOT NULL GROUP BY lang`,
      ),
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

  /** Empties the caches when another process (or this one) changed searchable passages since they were filled. */
  private fresh(): void {
    if (this.checkedThisTurn) return;
    this.checkedThisTurn = true;
    queueMicrotask(() => (this.checkedThisTurn = false));
    const version = this.versions.read(PASSAGES_VERSION);
    if (version === this.seenVersion) return;
    this.seenVersion = version;
    this.resetTotals();
    this.spaceCounts.clear();
    this.spaceLanguages.clear();
  }

  /** Tells every process that searchable passages changed. */
  private contentChanged(): void {
    this.versions.bump(PASSAGES_VERSION);
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
      const id = Number(
        this.stmt.insertPassage.run(space, documentId, p.ord, p.page, JSON.stringify(p.headings), p.text)
          .lastInsertRowid,
      );
      this.stmt.insertFts.run(id, key, p.headingTerms, p.terms);
      ids.push(id);
    }
    this.resetTotals();
    this.contentChanged();
    this.spaceCounts.delete(space);
    this.spaceLanguages.delete(space);
    return ids;
  }

  /**
   * Stores passages of an indexing run, hidden from searches until `swapIn`, in one short transaction. Returns their
   * ids in order.
   */
  addHidden(run: IndexRun, passages: readonly PreparedPassage[]): number[] {
    const key = spaceKey(run.space);
    return this.db.transaction(() =>
      passages.map((p) => {
        const id = Number(
          this.stmt.insertPassage.run(run.space, run.id, p.ord, p.page, JSON.stringify(p.headings), p.text)
            .lastInsertRowid,
        );
        this.stmt.insertFts.run(id, key, p.headingTerms, p.terms);
        this.stmt.insertHidden.run(id, run.space, run.id, run.runId);
        return id;
      }),
    )();
  }

  /** Up to `limit` passages of a run after `afterOrd`, in order (for the embedder, batch by batch). */
  runPassages(
    run: IndexRun,
    afterOrd: number,
    limit: number,
  ): { id: number; ord: number; headings: string[]; text: string }[] {
    return (
      this.stmt.runPassages.all(run.runId, afterOrd, limit) as {
        id: number;
        ord: number;
        headings: string;
        text: string;
      }[]
    ).map((r) => ({ ...r, headings: JSON.parse(r.headings) as string[] }));
  }

  /**
   * Makes a run's passages the document's searchable content: the version searchable until now is hidden (and left
   * for `purge`), the run's passages are revealed. Only ids move, so this is quick whatever the document's size;
   * call it inside the transaction that marks the document ready. Returns the document's passage count.
   */
  swapIn(run: IndexRun): number {
    const count = this.stmt.countRun.get(run.runId) as number;
    this.stmt.hideVisible.run(run.space, run.id);
    this.stmt.revealRun.run(run.runId);
    this.resetTotals();
    this.contentChanged();
    this.spaceCounts.delete(run.space);
    this.spaceLanguages.delete(run.space);
    return count;
  }

  /** Hides every passage of a document, runs included, for purging (a failed document keeps none). */
  hideDocument(space: string, documentId: string): void {
    this.stmt.hideVisible.run(space, documentId);
    this.stmt.abandonDocumentRuns.run(space, documentId);
    this.contentChanged();
    this.spaceLanguages.delete(space);
  }

  /** A run that will not be swapped in (replaced, removed, failed): its passages wait for purging. */
  abandonRun(run: IndexRun): void {
    this.stmt.abandonRun.run(run.runId);
  }

  /** Runs of documents that no process is indexing any more (their process died): left to the purge. */
  abandonOrphanRuns(): number {
    return this.stmt.abandonOrphanRuns.run().changes;
  }

  /** Every run of a document (its job was taken back from a process that is gone). */
  abandonDocumentRuns(space: string, documentId: string): void {
    this.stmt.abandonDocumentRuns.run(space, documentId);
  }

  /**
   * Deletes up to `limit` of the passages waiting for purging, from storage and the full-text index, in one
   * transaction. Returns their ids (for the vector index); fewer than `limit` means nothing is left.
   */
  purge(limit: number, alsoDelete?: (ids: number[]) => void): number[] {
    return this.db.transaction(() => {
      const ids = this.stmt.purgeable.all(limit) as number[];
      for (const id of ids) {
        this.stmt.deleteFts.run(id);
        this.stmt.deletePassage.run(id);
        this.stmt.deleteHidden.run(id);
      }
      alsoDelete?.(ids);
      if (ids.length) {
        this.resetTotals();
        this.contentChanged();
        this.spaceCounts.clear();
        this.spaceLanguages.clear();
      }
      return ids;
    })();
  }

  /** Removes a document's passages from storage and the full-text index; returns the removed ids. */
  deleteDocument(space: string, documentId: string): number[] {
    const ids = this.passageIds(space, documentId);
    for (const id of ids) this.stmt.deleteFts.run(id);
    this.stmt.deletePassages.run(space, documentId);
    this.stmt.deleteDocumentHidden.run(space, documentId);
    if (ids.length) {
      this.resetTotals();
      this.spaceCounts.delete(space);
    }
    this.contentChanged();
    this.spaceLanguages.delete(space);
    return ids;
  }

  /**
   * BM25 top-k of the space for an analysed question, by the space's own term statistics. FTS5 proposes candidates:
   * passages holding every question word (a conjunctive match is also the cheap one: few rows to score), with those
   * of a match on any word when they are fewer than k; its ranking uses every space's statistics, so it only picks the
   * candidates, and `spaceBm25` orders them with this space's (see space-stats.ts).
   */
  searchGroups(space: string, groups: readonly string[][], k: number, exactWords?: readonly string[]): SearchHit[] {
    if (k <= 0) return [];
    return this.hitsOf(space, groups, k, runMatchPlan(this.stmt.match, this.plan(space, groups, k)), exactWords);
  }

  /**
   * The same search with the full-text match run by `matcher` (a search thread), so this thread stays free. A space
   * of fewer than `inlineMatchPassages` passages is matched here: its match costs less than handing it over.
   */
  async searchGroupsWith(
    matcher: PlanMatcher,
    space: string,
    groups: readonly string[][],
    k: number,
    exactWords?: readonly string[],
  ): Promise<SearchHit[]> {
    if (k <= 0) return [];
    const plan = this.plan(space, groups, k);
    const rows =
      this.spaceRows(space) < this.inlineMatchPassages
        ? runMatchPlan(this.stmt.match, plan)
        : await matcher.match(plan);
    return this.hitsOf(space, groups, k, rows, exactWords);
  }

  private plan(space: string, groups: readonly string[][], k: number): MatchPlan {
    return {
      all: groups.length > 1 ? matchExpression(space, groups, true) : null,
      each: this.pruneCommon(space, groups)
        .map((alts) => matchExpression(space, [alts]))
        .filter((e): e is string => e !== null),
      k,
      depth: Math.max(k * 2, MIN_CANDIDATES),
      wordDepth: WORD_DEPTH_SHARE * Math.max(k * 2, MIN_CANDIDATES),
    };
  }

  /**
   * FTS5's candidates re-ranked by BM25 over the space's own term statistics (`space-bm25.ts`): FTS5's statistics are
   * those of the whole index, every space together. `exactWords`: the question's words as typed, one per group
   * (`queryWords`, folded), whose very form scores a little more than their stem (`EXACT_FORM_WEIGHT`).
   */
  private hitsOf(
    space: string,
    groups: readonly string[][],
    k: number,
    rows: readonly MatchedRow[],
    exactWords?: readonly string[],
  ): SearchHit[] {
    const candidates: PassageRecord[] = [];
    for (const row of rows) {
      const p = this.stmt.passage.get(row.id, space) as PassageRow | undefined;
      // Defensive: the space token already restricted the match; or gone since a thread matched it.
      if (p) candidates.push(toRecord(p));
    }
    if (candidates.length === 0) return [];
    const passages = this.spaceRows(space);
    const input = {
      groups,
      passages,
      languages: this.languages(space),
      headingWeight: HEADING_WEIGHT,
      df: groups.map((alts) => Math.max(0, ...alts.map((t) => this.termStats.df(space, passages, t)))),
      meanLength: this.termStats.meanLength(space, passages),
      ...(exactWords ? { exactWords } : {}),
    };
    return (
      candidates
        .map((p) => ({ p, bm25: spaceBm25(p, input) }))
        // Ties (the same words as often in passages as long) go to the passage indexed first: FTS5's order would
        // break them by every space's statistics.
        .sort((a, b) => b.bm25 - a.bm25 || a.p.id - b.p.id)
        .slice(0, k)
        .map(({ p, bm25 }, i) => ({ ...p, bm25, score: bm25, rank: i + 1 }))
    );
  }

  /**
   * Drops terms that occur in a large share of a large space's passages ("sistema" in a system manual) when the
   * question has rarer terms. Their BM25 weight is small, but scoring every passage that holds them is what makes
   * an OR query slow at tens of thousands of passages; the rarer terms decide the ranking anyway. The in-space count
   * is estimated from the index-wide one in proportion to the space's size.
   */
  private pruneCommon(space: string, groups: readonly string[][]): string[][] {
    const spaceRows = this.spaceRows(space);
    const all = groups.map((g) => [...g]);
    const limit = Math.max(PRUNE_MIN_PASSAGES, PRUNE_SHARE * spaceRows);
    if (spaceRows <= limit) return all;
    this.fresh();
    this.totalRows ??= this.stmt.countRows.get() as number;
    const scale = spaceRows / Math.max(1, this.totalRows);
    const df = (t: string) => this.indexDocs(t);
    const kept = groups.map((alts) => alts.filter((t) => df(t) * scale <= limit));
    // Pruning only makes sense if some kept term occurs at all; otherwise search with everything.
    return kept.some((g) => g.some((t) => df(t) > 0)) ? kept : all;
  }

  /** Index-wide counts change with any content: forgotten with the row total. */
  private resetTotals(): void {
    this.totalRows = null;
    this.termDocsCache.clear();
  }

  /** In how many passages of the whole index a term occurs (FTS5's vocabulary), remembered until content changes. */
  private indexDocs(term: string): number {
    let n = this.termDocsCache.get(term);
    if (n === undefined) {
      n = (this.stmt.termDocs.get(term) as number | undefined) ?? 0;
      if (this.termDocsCache.size >= MAX_CACHED_TERMS) this.termDocsCache.clear();
      this.termDocsCache.set(term, n);
    }
    return n;
  }

  private spaceRows(space: string): number {
    this.fresh();
    let n = this.spaceCounts.get(space);
    if (n === undefined) {
      n = this.stmt.countSpace.get(space) as number;
      this.spaceCounts.set(space, n);
    }
    return n;
  }

  search(space: string, question: string, k: number): SearchHit[] {
    const languages = this.languages(space);
    return this.searchGroups(space, queryTermGroups(question, languages), k, exactQueryWords(question, languages));
  }

  passage(space: string, id: number): PassageRecord | null {
    const p = this.stmt.passage.get(id, space) as PassageRow | undefined;
    return p ? toRecord(p) : null;
  }

  /**
   * Inverse document frequency of each term group (the most frequent alternative counts) in `space`: its passages
   * and how many of them hold the term (space-stats.ts), blended with the background prior of general Spanish
   * (text/background-prior.ts) so that a small space can tell a generic word from a topic; without a space, over the
   * whole index. Used to weigh how much of a question a passage or sentence covers.
   */
  idf(groups: readonly string[][], space?: string): number[] {
    let n: number;
    let dfOf: (t: string) => number;
    if (space === undefined) {
      this.fresh();
      this.totalRows ??= this.stmt.countRows.get() as number;
      n = Math.max(1, this.totalRows);
      dfOf = (t) => this.indexDocs(t);
    } else {
      const rows = this.spaceRows(space);
      n = Math.max(1, rows);
      dfOf = (t) => this.termStats.df(space, rows, t);
    }
    return groups.map((alts) => {
      let df = 0;
      for (const t of alts) df = Math.max(df, dfOf(t));
      if (space === undefined) return df === 0 ? ABSENT_TERM_WEIGHT * idfOf(n, 1) : idfOf(n, df);
      // The space's counts with general Spanish's as pseudo-passages (text/background-prior.ts).
      const blended = blendedCounts({ passages: n, df }, backgroundShare(this.prior, alts));
      return (df === 0 ? ABSENT_TERM_WEIGHT : 1) * idfOf(blended.passages, blended.df);
    });
  }

  /**
   * Whether each term group occurs in none of the space's passages: a question word the documents never use (in any of
   * its forms) is the surest sign that they do not talk about what is asked, when it is not a paraphrase.
   */
  absentGroups(groups: readonly string[][], space: string): boolean[] {
    const rows = this.spaceRows(space);
    return groups.map((alts) => alts.every((t) => this.termStats.df(space, rows, t) === 0));
  }

  /**
   * The languages a question should be searched in: those of the space's ready documents holding at least
   * MIN_LANGUAGE_SHARE of its passages. A language the space barely has would otherwise add stems whose rarity gives
   * them a huge IDF, so a few documents of that language top unrelated questions. All languages when nothing is known.
   */
  languages(space: string): Language[] {
    this.fresh();
    let cached = this.spaceLanguages.get(space);
    if (!cached) {
      cached = this.readLanguages(space);
      this.spaceLanguages.set(space, cached);
    }
    return cached;
  }

  private readLanguages(space: string): Language[] {
    const rows = this.stmt.languages.all(space) as { lang: string; passages: number }[];
    const total = rows.reduce((a, r) => a + r.passages, 0);
    const kept = rows.filter((r) => r.passages > 0 && r.passages >= MIN_LANGUAGE_SHARE * total).map((r) => r.lang);
    // Spanish and English first, as always; then any other language the identifier found (analyzer.ts).
    return kept.length > 0
      ? [...LANGUAGES.filter((l) => kept.includes(l)), ...kept.filter((l) => !LANGUAGES.includes(l)).sort()]
      : [...LANGUAGES];
  }

  stats(space: string): SpaceStats {
    return this.stmt.stats.get(space) as SpaceStats;
  }
}
