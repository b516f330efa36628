// An embedding model: turns texts into unit-length vectors. The ONNX implementation loads one from a local path.

export interface Embedder {
  /** Stable identity of the model (e.g. its directory name and file hash): vectors of different models never mix. */
  readonly id: string;
  readonly dimensions: number;
  /** One L2-normalised vector per text. */
  embed(texts: readonly string[], kind: 'query' | 'passage'): Promise<Float32Array[]>;
}
