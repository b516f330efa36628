// BM25 retrieval over the passage index, strictly per space: the engine plans each search and ranks its candidates
// with the space's own statistics; the index's storage (SQLite FTS5, or PostgreSQL's postings) is behind the storage
// port (storage/port/passage-index-repository.ts), which this reads through and caches.
import type {
  MatchedRow,
  MatchPlan,
  PassageIndexRepository,
  PassageRecord,
  SpaceStats,
} from '../../storage/port/passage-index-repository.js';
import { exactQueryWords, LANGUAGES, queryTermGroups, type Language } from '../text/analyzer.js';
import { literalWords } from '../text/identifiers.js';
import { matchExpression } from './fts-query.js';
import { passageLength, spaceBm25 } from './space-bm25.js';
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

/*
 * Why the depth asked changes the top 5 (no score is normalised over the candidates, nothing is cut after ranking):
 * the plan takes each word's matches only when the conjunctive match has fewer than k rows, and the conjunctive match
 * max(2k, MIN_CANDIDATES) deep, so asked 10–40 deep a passage holding some of the words very often becomes a
 * candidate and may outrank one holding every word. On the labelled sets 8 of the own set's 103 top-5 lists and 1 of
 * debian-handbook dev's 43 differ between 5 and 15 deep (15: how-to and where questions are answered from that deep);
 * recall@5 5 deep is the better (own set 89 vs 88 of 103; debian-handbook validacion 18 vs 17 at 40 deep). Tried
 * for a depth-independent top 5: every word's matches always (the pool of a deep search at every depth): own set 88,
 * the rest unchanged, and more matches to run in a large space; passages holding every question word ranked first,
 * then BM25: the top 5 is the same 5 and 10 deep on every list (15–40 deep: 2 of 274 differ), recall@5 unchanged, but
 * the cerebro bench's body-only headings fell (recall@1 0.329 → 0.322, @5 0.702 → 0.697, MRR 0.481 → 0.475) and
 * debian-handbook dev answers grew 70 → 75 words. Neither kept.
 */

/** Most index-wide term counts remembered between content changes (a question looks up a handful). */
const MAX_CACHED_TERMS = 50_000;

export type {
  MatchedRow,
  MatchPlan,
  PassageRecord,
  PlanMatcher,
  SpaceStats,
} from '../../storage/port/passage-index-repository.js';
export { mergeWordMatches } from '../../storage/merge-word-matches.js';

export interface SearchHit extends PassageRecord {
  /** Positive BM25 score (higher is better). */
  bm25: number;
  /** Fused score when hybrid retrieval ran, else equal to bm25. */
  score: number;
  /** 1-based rank in the final list. */
  rank: number;
}

/*
 * The full-text part of one search is a MatchPlan (storage/port/passage-index-repository.ts): the conjunctive match
 * (every question word; null with fewer than two words), then, when it has fewer than k rows, one match per
 * question word (`each`; empty when the question has no content word), each taking its word's best `wordDepth`
 * passages.
 * One match per word rather than one on any word: FTS5 ranks a match by the statistics of the whole index, every
 * space together, so on any word a neighbour's documents decided which of the space's passages became candidates (a
 * word common next door made the passages holding it lose their place). Within one word's match the order depends
 * on the passage alone (how often it says the word, how long it is), and the space's own statistics (space-bm25.ts)
 * then rank the union.
 * Running it is the expensive part of a question in a large space, so the SQLite repository can run it on another
 * thread (storage/sqlite/passage-index/search-pool.ts) while planning and ranking stay here.
 */

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

export class PassageIndex {
  private totalRows: number | null = null;
  private readonly termDocsCache = new Map<string, number>();
  private readonly spaceCounts = new Map<string, number>();
  /** `languages(space)`, cached: asked on every question, it changes only when a document's passages come or go. */
  private readonly spaceLanguages = new Map<string, Language[]>();
  private readonly termStats: SpaceTermStats;
  /**
   * The caches above describe what every process sharing the index wrote: each change of searchable passages bumps
   * a shared version (`contentVersion`), and a cache is trusted only while the version is the one last seen (read
   * once for the callers waiting on it together, and, for a caller that says when its question began (`since`), by
   * any check that started after that: everything committed before the question is seen, and one retrieval reads
   * the version once instead of once per step; on PostgreSQL each read is a round trip).
   */
  private seenVersion = -1;
  private latest: { startedAt: number; done: Promise<void>; settled: boolean } | null = null;

  constructor(
    /** Where the passages are stored; writes go to it directly (indexing, tools, tests). */
    readonly repository: PassageIndexRepository,
    private readonly prior: BackgroundPrior = BACKGROUND_PRIOR,
  ) {
    this.termStats = new SpaceTermStats(repository, passageLength);
  }

  /** Empties the caches when another process (or this one) changed searchable passages since they were filled. */
  private fresh(since?: number): Promise<void> {
    const latest = this.latest;
    // With `since`, only a check that started after the question began will do (in flight or done); without it, one
    // in flight is joined, as callers waiting together always did.
    if (latest && (since === undefined ? !latest.settled : latest.startedAt > since)) return latest.done;
    const check = { startedAt: performance.now(), done: Promise.resolve(), settled: false };
    check.done = this.checkVersion().then(
      () => {
        check.settled = true;
      },
      (err: unknown) => {
        // A failed read serves nobody later: the next caller reads again.
        check.settled = true;
        if (this.latest === check) this.latest = null;
        throw err;
      },
    );
    this.latest = check;
    return check.done;
  }

  private async checkVersion(): Promise<void> {
    const version = await this.repository.contentVersion();
    if (version === this.seenVersion) return;
    this.seenVersion = version;
    this.resetTotals();
    this.spaceCounts.clear();
    this.spaceLanguages.clear();
  }

  /**
   * BM25 top-k of the space for an analysed question, by the space's own term statistics. The index proposes
   * candidates: passages holding every question word (a conjunctive match is also the cheap one: few rows to score),
   * with each word's best when they are fewer than k; its ranking uses every space's statistics, so it only picks
   * the candidates, and `spaceBm25` orders them with this space's (see space-stats.ts).
   */
  async searchGroups(
    space: string,
    groups: readonly string[][],
    k: number,
    exactWords?: readonly string[],
    literal?: readonly boolean[],
    since?: number,
  ): Promise<SearchHit[]> {
    if (k <= 0) return [];
    const rows = await this.repository.match(await this.plan(space, groups, k, since));
    return this.hitsOf(space, groups, k, rows, exactWords, literal, since);
  }

  private async plan(space: string, groups: readonly string[][], k: number, since?: number): Promise<MatchPlan> {
    return {
      all: groups.length > 1 ? matchExpression(space, groups, true) : null,
      each: (await this.pruneCommon(space, groups, since))
        .map((alts) => matchExpression(space, [alts]))
        .filter((e): e is string => e !== null),
      k,
      depth: Math.max(k * 2, MIN_CANDIDATES),
      wordDepth: WORD_DEPTH_SHARE * Math.max(k * 2, MIN_CANDIDATES),
      spacePassages: await this.spaceRows(space, since),
    };
  }

  /**
   * The index's candidates re-ranked by BM25 over the space's own term statistics (`space-bm25.ts`): the index's
   * statistics are those of every space together. `exactWords`: the question's words as typed, one per group
   * (`queryWords`, folded), whose very form scores a little more than their stem (`EXACT_FORM_WEIGHT`).
   */
  private async hitsOf(
    space: string,
    groups: readonly string[][],
    k: number,
    rows: readonly MatchedRow[],
    exactWords?: readonly string[],
    literal?: readonly boolean[],
    since?: number,
  ): Promise<SearchHit[]> {
    // Defensive: the space token already restricted the match; or gone since a thread matched it.
    const candidates = await this.repository.passages(
      space,
      rows.map((r) => r.id),
    );
    if (candidates.length === 0) return [];
    const passages = await this.spaceRows(space, since);
    const df: number[] = [];
    for (const alts of groups) {
      let most = 0;
      for (const t of alts) most = Math.max(most, await this.termStats.df(space, passages, t));
      df.push(most);
    }
    const input = {
      groups,
      passages,
      languages: await this.languages(space, since),
      headingWeight: HEADING_WEIGHT,
      df,
      meanLength: await this.termStats.meanLength(space, passages),
      ...(exactWords ? { exactWords } : {}),
      ...(literal ? { literal } : {}),
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
  private async pruneCommon(space: string, groups: readonly string[][], since?: number): Promise<string[][]> {
    const spaceRows = await this.spaceRows(space, since);
    const all = groups.map((g) => [...g]);
    const limit = Math.max(PRUNE_MIN_PASSAGES, PRUNE_SHARE * spaceRows);
    if (spaceRows <= limit) return all;
    const scale = spaceRows / Math.max(1, await this.indexRows(since));
    const df = new Map<string, number>();
    for (const t of new Set(groups.flat())) df.set(t, await this.indexDocs(t));
    const kept = groups.map((alts) => alts.filter((t) => df.get(t)! * scale <= limit));
    // Pruning only makes sense if some kept term occurs at all; otherwise search with everything.
    return kept.some((g) => g.some((t) => df.get(t)! > 0)) ? kept : all;
  }

  /** Index-wide counts change with any content: forgotten with the row total. */
  private resetTotals(): void {
    this.totalRows = null;
    this.termDocsCache.clear();
  }

  /** Passages of the whole index, remembered until content changes. */
  private async indexRows(since?: number): Promise<number> {
    await this.fresh(since);
    this.totalRows ??= await this.repository.indexPassages();
    return this.totalRows;
  }

  /** In how many passages of the whole index a term occurs (FTS5's vocabulary), remembered until content changes. */
  private async indexDocs(term: string): Promise<number> {
    let n = this.termDocsCache.get(term);
    if (n === undefined) {
      n = await this.repository.termPassages(term);
      if (this.termDocsCache.size >= MAX_CACHED_TERMS) this.termDocsCache.clear();
      this.termDocsCache.set(term, n);
    }
    return n;
  }

  private async spaceRows(space: string, since?: number): Promise<number> {
    await this.fresh(since);
    let n = this.spaceCounts.get(space);
    if (n === undefined) {
      n = await this.repository.spacePassages(space);
      this.spaceCounts.set(space, n);
    }
    return n;
  }

  async search(space: string, question: string, k: number): Promise<SearchHit[]> {
    const languages = await this.languages(space);
    return this.searchGroups(
      space,
      queryTermGroups(question, languages),
      k,
      exactQueryWords(question, languages),
      literalWords(question, languages),
    );
  }

  /**
   * Whether each term group occurs in none of the space's passages: a question word the documents never use (in any of
   * its forms) is the surest sign that they do not talk about what is asked, when it is not a paraphrase.
   */
  async absentGroups(groups: readonly string[][], space: string, since?: number): Promise<boolean[]> {
    const rows = await this.spaceRows(space, since);
    const absent: boolean[] = [];
    for (const alts of groups) {
      let none = true;
      for (const t of alts) if ((await this.termStats.df(space, rows, t)) > 0) none = false;
      absent.push(none);
    }
    return absent;
  }

  async passage(space: string, id: number): Promise<PassageRecord | null> {
    return (await this.repository.passages(space, [id]))[0] ?? null;
  }

  /**
   * Inverse document frequency of each term group (the most frequent alternative counts) in `space`: its passages
   * and how many of them hold the term (space-stats.ts), blended with the background prior of general Spanish
   * (text/background-prior.ts) so that a small space can tell a generic word from a topic; without a space, over the
   * whole index. Used to weigh how much of a question a passage or sentence covers.
   */
  async idf(groups: readonly string[][], space?: string, since?: number): Promise<number[]> {
    let n: number;
    let dfOf: (t: string) => Promise<number>;
    if (space === undefined) {
      n = Math.max(1, await this.indexRows(since));
      dfOf = (t) => this.indexDocs(t);
    } else {
      const rows = await this.spaceRows(space, since);
      n = Math.max(1, rows);
      dfOf = (t) => this.termStats.df(space, rows, t);
    }
    const out: number[] = [];
    for (const alts of groups) {
      let df = 0;
      for (const t of alts) df = Math.max(df, await dfOf(t));
      if (space === undefined) out.push(df === 0 ? ABSENT_TERM_WEIGHT * idfOf(n, 1) : idfOf(n, df));
      else {
        // The space's counts with general Spanish's as pseudo-passages (text/background-prior.ts).
        const blended = blendedCounts({ passages: n, df }, backgroundShare(this.prior, alts));
        out.push((df === 0 ? ABSENT_TERM_WEIGHT : 1) * idfOf(blended.passages, blended.df));
      }
    }
    return out;
  }

  /**
   * The languages a question should be searched in: those of the space's ready documents holding at least
   * MIN_LANGUAGE_SHARE of its passages. A language the space barely has would otherwise add stems whose rarity gives
   * them a huge IDF, so a few documents of that language top unrelated questions. All languages when nothing is known.
   */
  async languages(space: string, since?: number): Promise<Language[]> {
    await this.fresh(since);
    let cached = this.spaceLanguages.get(space);
    if (!cached) {
      cached = await this.readLanguages(space);
      this.spaceLanguages.set(space, cached);
    }
    return cached;
  }

  private async readLanguages(space: string): Promise<Language[]> {
    const rows = await this.repository.languagePassages(space);
    const total = rows.reduce((a, r) => a + r.passages, 0);
    const kept = rows.filter((r) => r.passages > 0 && r.passages >= MIN_LANGUAGE_SHARE * total).map((r) => r.lang);
    // Spanish and English first, as always; then any other language the identifier found (analyzer.ts).
    return kept.length > 0
      ? [...LANGUAGES.filter((l) => kept.includes(l)), ...kept.filter((l) => !LANGUAGES.includes(l)).sort()]
      : [...LANGUAGES];
  }

  stats(space: string): Promise<SpaceStats> {
    return this.repository.stats(space);
  }
}
