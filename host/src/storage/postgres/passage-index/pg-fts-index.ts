// The engine's full-text index on PostgreSQL: what FTS5 stores for `cerebro_fts`, in plain tables (schema:
// postgres/migrations/0002_cerebro.ts). Rows and postings of a passage come and go with it; the totals BM25 averages
// over only grow, as in FTS5's contentless_delete table (a deleted row stays in the row count and average length),
// so both backends rank with the same statistics however documents came and went.
import type { PoolClient } from '../pg-driver.js';
import { fts5Tokens } from './fts5-tokens.js';

/** One passage as the engine indexes it: `insertFts.run(id, spaceKey, headingTerms, terms)` in passage-index.ts. */
export interface FtsRow {
  id: number;
  spaceKey: string;
  headingTerms: string;
  bodyTerms: string;
}

type Queryable = Pick<PoolClient, 'query'>;

/** Term frequencies of one column. */
function frequencies(tokens: readonly string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}

/** Indexes passages (call in the transaction that stores them). */
export async function indexFtsRows(db: Queryable, rows: readonly FtsRow[]): Promise<void> {
  if (rows.length === 0) return;
  const ids: number[] = [];
  const keys: string[] = [];
  const keyTokens: number[] = [];
  const headingTokens: number[] = [];
  const bodyTokens: number[] = [];
  const postings = { term: [] as string[], id: [] as number[], heading: [] as number[], body: [] as number[] };
  const totals = new Map<string, { rows: number; tokens: number }>();
  for (const row of rows) {
    const key = fts5Tokens(row.spaceKey);
    const heading = fts5Tokens(row.headingTerms);
    const body = fts5Tokens(row.bodyTerms);
    ids.push(row.id);
    keys.push(row.spaceKey);
    keyTokens.push(key.length);
    headingTokens.push(heading.length);
    bodyTokens.push(body.length);
    const h = frequencies(heading);
    const b = frequencies(body);
    for (const term of new Set([...h.keys(), ...b.keys()])) {
      postings.term.push(term);
      postings.id.push(row.id);
      postings.heading.push(h.get(term) ?? 0);
      postings.body.push(b.get(term) ?? 0);
    }
    const total = totals.get(row.spaceKey) ?? { rows: 0, tokens: 0 };
    total.rows += 1;
    total.tokens += key.length + heading.length + body.length;
    totals.set(row.spaceKey, total);
  }
  await db.query(
    `INSERT INTO cerebro_fts_rows (id, space_key, space_key_tokens, heading_tokens, body_tokens)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[])`,
    [ids, keys, keyTokens, headingTokens, bodyTokens],
  );
  await db.query(
    `INSERT INTO cerebro_fts_postings (term, id, heading_tf, body_tf)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[])`,
    [postings.term, postings.id, postings.heading, postings.body],
  );
  const spaceKeys = [...totals.keys()].sort();
  await db.query(
    `INSERT INTO cerebro_fts_totals (space_key, row_count, token_count)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[])
     ON CONFLICT (space_key) DO UPDATE SET row_count = cerebro_fts_totals.row_count + excluded.row_count,
       token_count = cerebro_fts_totals.token_count + excluded.token_count`,
    [spaceKeys, spaceKeys.map((k) => totals.get(k)!.rows), spaceKeys.map((k) => totals.get(k)!.tokens)],
  );
}

/** Removes passages from the index (FTS5's `DELETE FROM cerebro_fts WHERE rowid = ?`); the totals keep them. */
export async function unindexFtsRows(db: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query('DELETE FROM cerebro_fts_postings WHERE id = ANY($1::bigint[])', [ids]);
  await db.query('DELETE FROM cerebro_fts_rows WHERE id = ANY($1::bigint[])', [ids]);
}

/** In how many indexed passages a term occurs (FTS5's `cerebro_fts_vocab` `doc`, over heading and body). */
export async function termPassages(db: Queryable, term: string): Promise<number> {
  const r = await db.query<{ n: number }>('SELECT count(*) AS n FROM cerebro_fts_postings WHERE term = $1', [term]);
  return r.rows[0]!.n;
}

/**
 * In how many searchable passages of a space a term occurs, counted up to `cap` (space-stats.ts's count: hidden
 * passages left out, as in SQLite).
 */
export async function spaceTermPassages(db: Queryable, spaceKey: string, term: string, cap: number): Promise<number> {
  const r = await db.query<{ n: number }>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM cerebro_fts_postings p JOIN cerebro_fts_rows r ON r.id = p.id
       WHERE p.term = $1 AND r.space_key = $2
         AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = p.id) LIMIT $3) x`,
    [term, spaceKey, cap],
  );
  return r.rows[0]!.n;
}
