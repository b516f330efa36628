// Passage vectors in sqlite-vec (loaded into the same better-sqlite3 connection), partitioned by space so a
// nearest-neighbour search only scans the space's own vectors. The table is named after the dimension because an
// immutable migration cannot know which model will be configured.
import * as sqliteVec from 'sqlite-vec';
import type { SqliteDatabase } from '../database.js';
import { preparedOnUse } from './prepared-on-use.js';

const loaded = new WeakSet<SqliteDatabase>();

export function loadSqliteVec(db: SqliteDatabase): void {
  if (loaded.has(db)) return;
  sqliteVec.load(db);
  loaded.add(db);
}

/** Synchronous vector statements: the vector repository wraps them; the passage purge deletes with them inside its transaction. */
export class SqliteVectorStore {
  readonly table: string;
  private readonly stmt;

  constructor(
    db: SqliteDatabase,
    readonly dimensions: number,
  ) {
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 8192)
      throw new Error(`invalid vector dimension ${dimensions}`);
    loadSqliteVec(db);
    this.table = `cerebro_vec_d${dimensions}`;
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${this.table} USING vec0(space text partition key, embedding float[${dimensions}] distance_metric=cosine)`,
    );
    this.stmt = preparedOnUse({
      insert: () => db.prepare(`INSERT INTO ${this.table} (rowid, space, embedding) VALUES (?, ?, ?)`),
      delete: () => db.prepare(`DELETE FROM ${this.table} WHERE rowid = ?`),
      knn: () =>
        db.prepare(`SELECT rowid AS id, distance FROM ${this.table} WHERE embedding MATCH ? AND k = ? AND space = ?`),
      get: () => db.prepare(`SELECT embedding FROM ${this.table} WHERE rowid = ? AND space = ?`),
    });
  }

  put(space: string, ids: readonly number[], vectors: readonly Float32Array[]): void {
    ids.forEach((id, i) => {
      const v = vectors[i]!;
      if (v.length !== this.dimensions)
        throw new Error(`vector of ${v.length} dimensions, expected ${this.dimensions}`);
      this.stmt.insert.run(BigInt(id), space, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
    });
  }

  delete(ids: readonly number[]): void {
    for (const id of ids) this.stmt.delete.run(BigInt(id));
  }

  /** The stored vector of each passage of the space that has one. */
  vectors(space: string, ids: readonly number[]): Map<number, Float32Array> {
    const out = new Map<number, Float32Array>();
    for (const id of ids) {
      const row = this.stmt.get.get(BigInt(id), space) as { embedding: Buffer } | undefined;
      if (row)
        out.set(
          id,
          new Float32Array(
            row.embedding.buffer.slice(row.embedding.byteOffset, row.embedding.byteOffset + row.embedding.byteLength),
          ),
        );
    }
    return out;
  }

  /** Nearest passages of the space by cosine distance, closest first. */
  nearest(space: string, vector: Float32Array, k: number): { id: number; distance: number }[] {
    if (k <= 0) return [];
    const rows = this.stmt.knn.all(Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength), k, space) as {
      id: number | bigint;
      distance: number;
    }[];
    return rows.map((r) => ({ id: Number(r.id), distance: r.distance }));
  }
}
