// The engine also runs on its own (benches, tests, tools): tsyringe's decorators on these classes need the polyfill.
import 'reflect-metadata';
import type { SqliteDatabase } from '../database.js';
import type { EngineStorage } from '../port/engine-storage.js';
import { SqliteDocumentJobRepository } from './document-job-repository.js';
import { SqlitePassageIndexRepository, type SqliteSearchOptions } from './passage-index/passage-index-repository.js';
import { SqliteProcessLeaseRepository } from './process-lease-repository.js';
import { SqliteVectorRepositories } from './vector-repository.js';

/** The engine's repositories over one SQLite database (the host resolves the same classes from its container). */
export function sqliteEngineStorage(db: SqliteDatabase, search: SqliteSearchOptions = {}): EngineStorage {
  return {
    documents: new SqliteDocumentJobRepository(db),
    leases: new SqliteProcessLeaseRepository(db),
    vectors: new SqliteVectorRepositories(db),
    passages: new SqlitePassageIndexRepository(db, search),
  };
}
