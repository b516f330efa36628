// Term statistics of one space: in how many of its passages a term occurs, and how long its passages are. FTS5's own
// BM25 counts over the whole table, every space together, so one tenant's documents would change how another's
// questions are ranked and judged (a word common in a big manual next door weighed as common in a small FAQ). These
// counts are the space's own.
import type { PassageSearchRepository } from '../../storage/port/passage-index-repository.js';

/**
 * A space's counts are recomputed once its passage count has moved by more than this share since they were taken:
 * one more document barely changes a frequency, and counting a common term over tens of thousands of passages costs
 * milliseconds, so a space being indexed does not pay that on every question.
 */
const STALE_SHARE = 0.05;

interface SpaceCounts {
  /** Passages of the space when the counts were taken. */
  rows: number;
  /** Mean length of a passage (`lengthOf`), from a sample. */
  meanLength: number;
  df: Map<string, number>;
  /** Passages of the whole index when first needed (to estimate a common term's count), taken with these counts. */
  indexRows?: number;
}

/** Passages read to estimate a space's mean passage length. */
const LENGTH_SAMPLE = 400;
/**
 * A term's passages are counted up to this many; beyond it the count is estimated from the whole index's in
 * proportion to the space's size. Counting walks the term's posting list, which for a word in most of tens of
 * thousands of passages costs tens of milliseconds; at that frequency BM25 weighs the word little anyway.
 */
const COUNT_CAP = 1000;

/** Most terms remembered per space (a question has a handful; the cache only has to outlive many questions). */
const MAX_TERMS = 50_000;

export class SpaceTermStats {
  private readonly spaces = new Map<string, SpaceCounts>();

  constructor(
    private readonly repo: PassageSearchRepository,
    private readonly lengthOf: (p: { text: string; headings: string[] }) => number,
  ) {}

  private async meanLengthOf(space: string): Promise<number> {
    const rows = await this.repo.lengthSample(space, LENGTH_SAMPLE);
    if (rows.length === 0) return 0;
    return rows.reduce((sum, r) => sum + this.lengthOf(r), 0) / rows.length;
  }

  /** The space's counts, taken afresh when `rows` (its current passage count) has moved too far from theirs. */
  private async countsOf(space: string, rows: number): Promise<SpaceCounts> {
    const counts = this.spaces.get(space);
    if (counts && Math.abs(rows - counts.rows) <= STALE_SHARE * Math.max(1, counts.rows) && counts.df.size <= MAX_TERMS)
      return counts;
    const fresh: SpaceCounts = { rows, meanLength: await this.meanLengthOf(space), df: new Map() };
    this.spaces.set(space, fresh);
    return fresh;
  }

  /** In how many passages of the space the term occurs (heading or text). */
  async df(space: string, rows: number, term: string): Promise<number> {
    const counts = await this.countsOf(space, rows);
    let n = counts.df.get(term);
    if (n === undefined) {
      n = await this.repo.spaceTermPassages(space, term, COUNT_CAP);
      if (n >= COUNT_CAP) {
        counts.indexRows ??= await this.repo.indexPassages();
        const share = rows / Math.max(1, counts.indexRows);
        n = Math.min(rows, Math.max(COUNT_CAP, Math.round((await this.repo.termPassages(term)) * share)));
      }
      counts.df.set(term, n);
    }
    return n;
  }

  /** Mean length of the space's passages, as the `lengthOf` given measures it. */
  async meanLength(space: string, rows: number): Promise<number> {
    return (await this.countsOf(space, rows)).meanLength;
  }
}

/** BM25's inverse document frequency of a term in `df` of `n` passages (the form FTS5 uses: never negative). */
export const idfOf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));
