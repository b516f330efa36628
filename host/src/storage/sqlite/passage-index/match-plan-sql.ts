// FTS5's part of a search: the one MATCH statement and how a MatchPlan runs with it, on the calling thread or on a
// search thread (search-worker.ts), which prepares the same statement on its own connection.
import { mergeWordMatches } from '../../merge-word-matches.js';
import type { MatchedRow, MatchPlan } from '../../port/passage-index-repository.js';

/** BM25 weight of heading terms relative to body terms (the engine's HEADING_WEIGHT). */
const HEADING_WEIGHT = 2;

/** Hidden passages are skipped as the ranked rows come out, so LIMIT still yields k searchable ones. */
export const MATCH_SQL = `SELECT rowid AS id, rank FROM cerebro_fts WHERE cerebro_fts MATCH ? AND rank MATCH 'bm25(0.0, ${HEADING_WEIGHT}, 1.0)'
  AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = cerebro_fts.rowid) ORDER BY rank LIMIT ?`;

/**
 * Runs a plan with a prepared MATCH_SQL statement: conjunctive rows first, then each word's best rows, taken in turn
 * (`mergeWordMatches`).
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
