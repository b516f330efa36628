// The vector store the retriever reads synchronously (its read path moves to the port with the passage index);
// writes go through the VectorRepository port (storage/port/vector-repository.ts).
export { SqliteVectorStore as VectorStore } from '../../storage/sqlite/vector-store.js';
