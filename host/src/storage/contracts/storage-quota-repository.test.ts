import 'reflect-metadata';
import {
  storageQuotaRepositoryContract,
  storageUsageFollowsWritesContract,
} from '../port/storage-quota-repository.contract.js';
import { PgStorageQuotaRepository } from '../postgres/pg-storage-quota-repository.js';
import { migratedTestDatabase } from '../sqlite/migrated-test-database.js';
import { SqliteStorageQuotaRepository } from '../sqlite/storage-quota-repository.js';
import type { TestDatabase } from '../postgres/testing/pg-test-database.js';
import { onEachBackend } from './each-backend.js';

const at = '2026-01-01T00:00:00.000Z';

/** What the contract describes, in SQL both databases take as it is (no parameters, no engine-specific literal). */
const SEED = [
  `INSERT INTO owners (id, name, created_at) VALUES ('p', 'P', '${at}')`,
  `INSERT INTO accounts (id, owner_id, created_at, quota_bytes) VALUES ('full', 'p', '${at}', 1000)`,
  `INSERT INTO accounts (id, owner_id, created_at) VALUES ('vacia', 'p', '${at}'), ('otra', 'p', '${at}')`,
  `INSERT INTO spaces (id, name, owner_id, account_id, created_at) VALUES
     ('uno', 'Uno', 'p', 'full', '${at}'), ('dos', 'Dos', 'p', 'full', '${at}'),
     ('tres', 'Tres', 'p', 'vacia', '${at}'), ('cuatro', 'Cuatro', 'p', 'otra', '${at}')`,
  `INSERT INTO cerebro_documents (space, id, name, media_type, bytes, path, state, created_at, updated_at, queued_at)
   VALUES ${[
     ['uno', 'd1', 100],
     ['uno', 'd2', 250],
     ['dos', 'd3', 50],
     ['cuatro', 'd4', 999],
   ]
     .map(
       ([space, id, bytes]) =>
         `('${space}', '${id}', '${id}.txt', 'text/plain', ${bytes}, '${id}.txt', 'ready', '${at}', '${at}', '${at}')`,
     )
     .join(', ')}`,
];

const backends = {
  async sqlite() {
    const { db, close } = await migratedTestDatabase();
    for (const sql of SEED) db.exec(sql);
    return { repo: new SqliteStorageQuotaRepository(db), exec: async (sql: string) => void db.exec(sql), close };
  },
  async postgres({ pool }: TestDatabase) {
    for (const sql of SEED) await pool.query(sql);
    return {
      repo: new PgStorageQuotaRepository(pool),
      exec: async (sql: string) => void (await pool.query(sql)),
      close: async () => undefined,
    };
  },
};
await onEachBackend(storageQuotaRepositoryContract, backends);
await onEachBackend(storageUsageFollowsWritesContract, backends);
