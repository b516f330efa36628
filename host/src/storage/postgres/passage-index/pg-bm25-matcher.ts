// FTS5's `bm25()` computed by PostgreSQL over the engine's own index tables, so the candidates a question gets are
// the same on both backends (storage/sqlite/passage-index/match-plan-sql.ts, MATCH_SQL). FTS5's formula, operation by operation
// (sqlite/ext/fts5/fts5_aux.c, fts5Bm25Function): per phrase, idf = ln((N - n + 0.5) / (n + 0.5)), 1e-6 when not
// positive, with N the rows indexed (deleted ones too, contentless_delete) and n the rows holding the phrase in its
// columns; score = Σ idf · f·(k1+1) / (f + k1·(1 - b + b·D/avgdl)) in phrase order, f the column-weighted count of
// the phrase in the row, D the row's tokens over all columns, avgdl the tokens of all rows over N. PostgreSQL's
// float8 and ln() are the same IEEE doubles and C library log as SQLite's, and the sum runs in phrase order, so
// the scores are FTS5's to the last bit or nearly.
import { mergeWordMatches } from '../../merge-word-matches.js';
import type { MatchedRow, MatchPlan, PlanMatcher } from '../../port/passage-index-repository.js';
import type { Pool } from '../pg-driver.js';
import { parseMatchExpression } from './fts5-match-expression.js';

/** Column weights of the engine's ranking, `bm25(0.0, HEADING_WEIGHT, 1.0)` (space key, heading, body). */
const HEADING_WEIGHT = 2;
const BODY_WEIGHT = 1;

const MATCH_SQL = `
WITH ph AS (SELECT * FROM unnest($2::text[], $3::int[], $4::int[]) AS t(term, i, g)),
tot AS MATERIALIZED (SELECT sum(row_count)::float8 AS n, sum(token_count)::float8 AS tokens FROM cerebro_fts_totals),
hits AS MATERIALIZED (
  SELECT ph.i, ph.g, p.id,
    (${HEADING_WEIGHT.toFixed(1)}::float8 * p.heading_tf + ${BODY_WEIGHT.toFixed(1)}::float8 * p.body_tf) AS f
  FROM ph JOIN cerebro_fts_postings p ON p.term = ph.term
),
idf AS MATERIALIZED (
  SELECT c.i, CASE WHEN x.v <= 0 THEN 1e-6::float8 ELSE x.v END AS idf
  FROM (SELECT i, count(*)::float8 AS hits FROM hits GROUP BY i) c CROSS JOIN tot
  CROSS JOIN LATERAL (SELECT ln((tot.n - c.hits + 0.5::float8) / (c.hits + 0.5::float8)) AS v) x
),
cand AS MATERIALIZED (
  SELECT r.id, (r.space_key_tokens + r.heading_tokens + r.body_tokens)::float8 AS d
  FROM (SELECT id FROM hits GROUP BY id HAVING count(DISTINCT g) = $5) m JOIN cerebro_fts_rows r ON r.id = m.id
  WHERE r.space_key = $1 AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = r.id)
),
scored AS (
  SELECT c.id,
    sum(idf.idf * ((h.f * (1.2::float8 + 1.0::float8))
        / (h.f + 1.2::float8 * ((1.0::float8 - 0.75::float8) + 0.75::float8 * c.d / (tot.tokens / tot.n))))
      ORDER BY h.i) AS score
  FROM cand c JOIN hits h ON h.id = c.id JOIN idf ON idf.i = h.i CROSS JOIN tot
  GROUP BY c.id
)
SELECT id, -score AS rank FROM scored ORDER BY score DESC, id LIMIT $6`;

/**
 * Rows of one FTS5 expression of the engine, best first, at most `limit`: what MATCH_SQL gives on SQLite (ties by
 * passage id, as FTS5's rank sort leaves them in rowid order).
 */
export async function matchFts(pool: Pool, expression: string, limit: number): Promise<MatchedRow[]> {
  const { spaceKey, groups } = parseMatchExpression(expression);
  const terms: string[] = [];
  const phrase: number[] = [];
  const group: number[] = [];
  // Phrase 0 is the space token: weight 0, it adds nothing to a score.
  groups.forEach((alts, g) => {
    for (const t of alts) {
      terms.push(t);
      phrase.push(terms.length);
      group.push(g);
    }
  });
  const r = await pool.query<MatchedRow>(MATCH_SQL, [spaceKey, terms, phrase, group, groups.length, limit]);
  return r.rows;
}

/**
 * The engine's PlanMatcher on PostgreSQL: `runMatchPlan`'s order (rows holding every word first, then each word's
 * best rows taken in turn), each match ranked by FTS5's BM25.
 */
export class PgBm25Matcher implements PlanMatcher {
  constructor(private readonly pool: Pool) {}

  async match(plan: MatchPlan): Promise<MatchedRow[]> {
    const rows = plan.all ? await matchFts(this.pool, plan.all, plan.depth) : [];
    if (rows.length >= plan.k) return rows;
    if (plan.each.length === 0) return [];
    const lists = await Promise.all(plan.each.map((expression) => matchFts(this.pool, expression, plan.wordDepth)));
    return mergeWordMatches(rows, lists, plan.wordDepth);
  }
}
