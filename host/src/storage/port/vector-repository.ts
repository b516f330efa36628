import { createToken } from '@cerebro/sdk';

/**
 * Passage vectors of one dimension, partitioned by space: a nearest-neighbour search only sees the space's own.
 * A passage's vector is deleted with the passage (by the passage index's purge, in its transaction).
 */
export interface VectorRepository {
  readonly dimensions: number;
  /** Stores one vector per passage id (same order), all or nothing; a vector of another dimension is refused. */
  put(space: string, ids: readonly number[], vectors: readonly Float32Array[]): Promise<void>;
  delete(ids: readonly number[]): Promise<void>;
  /** The stored vector of each passage of the space that has one. */
  vectors(space: string, ids: readonly number[]): Promise<Map<number, Float32Array>>;
  /** The k nearest passages of the space by cosine distance, closest first. */
  nearest(space: string, vector: Float32Array, k: number): Promise<{ id: number; distance: number }[]>;
}

/** The vector repositories by dimension (the embedding model, configured at start, decides it). */
export interface VectorRepositories {
  forDimensions(dimensions: number): VectorRepository;
}

export const VectorRepositoriesToken = createToken<VectorRepositories>('host:vector-repositories');
