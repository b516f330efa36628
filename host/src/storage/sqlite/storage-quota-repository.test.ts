import 'reflect-metadata';
import { storageQuotaRepositoryContract } from '../port/storage-quota-repository.contract.js';
import { SqliteStorageQuotaRepository } from './storage-quota-repository.js';
import { migratedTestDatabase } from './migrated-test-database.js';

storageQuotaRepositoryContract('sqlite', async () => {
  const { db, close } = await migratedTestDatabase();
  const at = '2026-01-01T00:00:00.000Z';
  db.exec(`INSERT INTO owners (id, name, created_at) VALUES ('p', 'P', '${at}');
    INSERT INTO accounts (id, owner_id, created_at, quota_bytes) VALUES ('full', 'p', '${at}', 1000);
    INSERT INTO accounts (id, owner_id, created_at) VALUES ('vacia', 'p', '${at}'), ('otra', 'p', '${at}');
    INSERT INTO spaces (id, name, owner_id, account_id, created_at) VALUES
      ('uno', 'Uno', 'p', 'full', '${at}'), ('dos', 'Dos', 'p', 'full', '${at}'),
      ('tres', 'Tres', 'p', 'vacia', '${at}'), ('cuatro', 'Cuatro', 'p', 'otra', '${at}');`);
  const doc = db.prepare(
    "INSERT INTO cerebro_documents (space, id, name, media_type, bytes, path, state, created_at, updated_at, queued_at) VALUES (?, ?, ?, 'text/plain', ?, ?, 'ready', ?, ?, ?)",
  );
  for (const [space, id, bytes] of [
    ['uno', 'd1', 100],
    ['uno', 'd2', 250],
    ['dos', 'd3', 50],
    ['cuatro', 'd4', 999],
  ] as const)
    doc.run(space, id, `${id}.txt`, bytes, `${id}.txt`, at, at, at);
  return { repo: new SqliteStorageQuotaRepository(db), close };
});
