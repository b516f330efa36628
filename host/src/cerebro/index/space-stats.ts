// Term statistics of one space: in how many of its passages a term occurs, and how long its passages are. FTS5's own
// BM25 counts over the whole table, every space together, so one tenant's documents would change how another's
// questions are ranked and judged (a word common in a big manual next door weighed as common in a small FAQ). These
// counts are the space's own.
import type { SqliteDatabase } from '../../storage/database.js';
import { spaceKey } from './space-key.js';

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
  private readonly stmt;

  constructor(
    db: SqliteDatabase,
    private readonly lengthOf: (p: { text: string; headings: string[] }) => number,
  ) {
    this.stmt = {
      // Hidden passages (an indexing run not yet swapped in, or waiting for purge) are counted too: a bounded,
      // short-lived error that spares a join over the whole posting list.
      count: db
        .prepare(`SELECT count(*) FROM (SELECT rowid FROM cerebro_fts WHERE cerebro_fts MATCH ? LIMIT ${COUNT_CAP})`)
        .pluck(),
      sample: db.prepare(`SELECT text, headings FROM cerebro_passages WHERE space = ? LIMIT ${LENGTH_SAMPLE}`),
      totalDocs: db.prepare('SELECT doc FROM cerebro_fts_vocab WHERE term = ?').pluck(),
      totalRows: db.prepare('SELECT count(*) FROM cerebro_passages').pluck(),
    };
  }

  private meanLengthOf(space: string): number {
    const rows = this.stmt.sample.all(space) as { text: string; headings: string }[];
    if (rows.length === 0) return 0;
    return (
      rows.reduce((sum, r) => sum + this.lengthOf({ text: r.text, headings: JSON.parse(r.headings) as string[] }), 0) /
      rows.length
    );
  }

  /** The space's counts, taken afresh when `rows` (its current passage count) has moved too far from theirs. */
  private countsOf(space: string, rows: number): SpaceCounts {
    let counts = this.spaces.get(space);
    if (
      !counts ||
      Math.abs(rows - counts.rows) > STALE_SHARE * Math.max(1, counts.rows) ||
      counts.df.size > MAX_TERMS
    ) {
      counts = { rows, meanLength: this.meanLengthOf(space), df: new Map() };
      this.spaces.set(space, counts);
    }
    return counts;
  }

  /** In how many passages of the space the term occurs (heading or text). */
  df(space: string, rows: number, term: string): number {
    const counts = this.countsOf(space, rows);
    let n = counts.df.get(term);
    if (n === undefined) {
      const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;
      n = this.stmt.count.get(`{space_key} : ${quote(spaceKey(space))} AND {heading body} : ${quote(term)}`) as number;
      if (n >= COUNT_CAP) {
        counts.indexRows ??= this.stmt.totalRows.get() as number;
        const share = rows / Math.max(1, counts.indexRows);
        n = Math.min(
          rows,
          Math.max(COUNT_CAP, Math.round(((this.stmt.totalDocs.get(term) as number | undefined) ?? 0) * share)),
        );
      }
      counts.df.set(term, n);
    }
    return n;
  }

  /** Mean length of the space's passages, as the `lengthOf` given measures it. */
  meanLength(space: string, rows: number): number {
    return this.countsOf(space, rows).meanLength;
  }
}

/** BM25's inverse document frequency of a term in `df` of `n` passages (the form FTS5 uses: never negative). */
export const idfOf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));
