import { inject, injectable } from 'tsyringe';
import { SqliteDatabaseToken } from './database-token.js';
import type { SqliteDatabase } from '../database.js';
import type { VectorRepositories, VectorRepository } from '../port/vector-repository.js';
import { SqliteVectorStore } from './vector-store.js';

/** Vectors of one dimension in sqlite-vec (the statements of `SqliteVectorStore`). */
export class SqliteVectorRepository implements VectorRepository {
  readonly dimensions: number;

  constructor(
    private readonly db: SqliteDatabase,
    readonly store: SqliteVectorStore,
  ) {
    this.dimensions = store.dimensions;
  }

  async put(space: string, ids: readonly number[], vectors: readonly Float32Array[]): Promise<void> {
    this.db.transaction(() => this.store.put(space, ids, vectors)).immediate();
  }

  async delete(ids: readonly number[]): Promise<void> {
    this.store.delete(ids);
  }

  async vectors(space: string, ids: readonly number[]): Promise<Map<number, Float32Array>> {
    return this.store.vectors(space, ids);
  }

  async nearest(space: string, vector: Float32Array, k: number): Promise<{ id: number; distance: number }[]> {
    return this.store.nearest(space, vector, k);
  }
}

/** One repository per dimension, each with its own sqlite-vec table (created on first use). */
@injectable()
export class SqliteVectorRepositories implements VectorRepositories {
  private readonly byDimension = new Map<number, SqliteVectorRepository>();

  constructor(@inject(SqliteDatabaseToken) private readonly db: SqliteDatabase) {}

  forDimensions(dimensions: number): SqliteVectorRepository {
    let repo = this.byDimension.get(dimensions);
    if (!repo) {
      repo = new SqliteVectorRepository(this.db, new SqliteVectorStore(this.db, dimensions));
      this.byDimension.set(dimensions, repo);
    }
    return repo;
  }
}
