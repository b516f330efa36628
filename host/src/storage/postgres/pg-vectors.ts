// Passage vectors on PostgreSQL without pgvector (pg-vector-support.ts: Debian's PostgreSQL 15 here has none): each
// vector is stored as its float32 bytes, partitioned by space, and the nearest are found exactly in the engine by
// cosine distance (1 − cos, sqlite-vec's `distance_metric=cosine`) over the space's own vectors. The table is named
// after the dimension, as in SQLite, because an immutable migration cannot know which model will be configured; it
// is created on first use under a lock, so hosts starting together create it once.
import type { VectorRepositories, VectorRepository } from '../port/vector-repository.js';
import { inTransaction, type Pool } from './pg-driver.js';

const asBytes = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
/** A copy: a row's bytes need not be aligned for a Float32Array view. */
const asVector = (b: Buffer): Float32Array =>
  new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

function norm(v: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  return Math.sqrt(sum);
}

/** Cosine distance; a zero vector is at distance 1 of everything (no direction to agree with). */
function cosineDistance(a: Float32Array, aNorm: number, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  const denominator = aNorm * norm(b);
  return denominator === 0 ? 1 : 1 - dot / denominator;
}

export class PgVectorRepository implements VectorRepository {
  readonly table: string;
  private ready: Promise<void> | undefined;

  constructor(
    private readonly pool: Pool,
    readonly dimensions: number,
  ) {
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 8192)
      throw new Error(`invalid vector dimension ${dimensions}`);
    this.table = `cerebro_vec_d${dimensions}`;
  }

  private ensureTable(): Promise<void> {
    this.ready ??= inTransaction(this.pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('cerebro:vectores', 0))");
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.table} (passage_id BIGINT PRIMARY KEY, space TEXT NOT NULL, embedding BYTEA NOT NULL)`,
      );
      await client.query(`CREATE INDEX IF NOT EXISTS ${this.table}_space ON ${this.table} (space)`);
    }).catch((err) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  async put(space: string, ids: readonly number[], vectors: readonly Float32Array[]): Promise<void> {
    for (const v of vectors) {
      if (v.length !== this.dimensions)
        throw new Error(`vector of ${v.length} dimensions, expected ${this.dimensions}`);
    }
    if (ids.length === 0) return;
    await this.ensureTable();
    // One statement: the batch is stored whole or not at all.
    await this.pool.query(
      `INSERT INTO ${this.table} (passage_id, space, embedding) SELECT unnest($1::bigint[]), $2, unnest($3::bytea[])`,
      [ids, space, vectors.map(asBytes)],
    );
  }

  async delete(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.ensureTable();
    await this.pool.query(`DELETE FROM ${this.table} WHERE passage_id = ANY($1::bigint[])`, [ids]);
  }

  async vectors(space: string, ids: readonly number[]): Promise<Map<number, Float32Array>> {
    if (ids.length === 0) return new Map();
    await this.ensureTable();
    const r = await this.pool.query<{ passage_id: number; embedding: Buffer }>(
      `SELECT passage_id, embedding FROM ${this.table} WHERE space = $1 AND passage_id = ANY($2::bigint[])`,
      [space, ids],
    );
    return new Map(r.rows.map((row) => [row.passage_id, asVector(row.embedding)]));
  }

  async nearest(space: string, vector: Float32Array, k: number): Promise<{ id: number; distance: number }[]> {
    if (k <= 0) return [];
    await this.ensureTable();
    const r = await this.pool.query<{ passage_id: number; embedding: Buffer }>(
      `SELECT passage_id, embedding FROM ${this.table} WHERE space = $1`,
      [space],
    );
    const queryNorm = norm(vector);
    return r.rows
      .map((row) => ({ id: row.passage_id, distance: cosineDistance(vector, queryNorm, asVector(row.embedding)) }))
      .sort((a, b) => a.distance - b.distance || a.id - b.id)
      .slice(0, k);
  }
}

/** One repository per dimension, each with its own table. */
export class PgVectorRepositories implements VectorRepositories {
  private readonly byDimension = new Map<number, PgVectorRepository>();

  constructor(private readonly pool: Pool) {}

  /**
   * Deletes the vectors of passages whatever their dimension (every `cerebro_vec_d*` table): a removed document's
   * passages, deleted at once on PostgreSQL, may hold vectors of a model configured before.
   */
  async deletePassages(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    const tables = await this.pool.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename ~ '^cerebro_vec_d[0-9]+$'",
    );
    for (const { tablename } of tables.rows) {
      await this.pool.query(`DELETE FROM ${tablename} WHERE passage_id = ANY($1::bigint[])`, [ids]);
    }
  }

  forDimensions(dimensions: number): PgVectorRepository {
    let repo = this.byDimension.get(dimensions);
    if (!repo) {
      repo = new PgVectorRepository(this.pool, dimensions);
      this.byDimension.set(dimensions, repo);
    }
    return repo;
  }
}
