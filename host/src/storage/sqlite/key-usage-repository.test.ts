import 'reflect-metadata';
import { keyUsageRepositoryContract } from '../port/key-usage-repository.contract.js';
import { SqliteKeyUsageRepository } from './key-usage-repository.js';
import { migratedTestDatabase } from './migrated-test-database.js';

keyUsageRepositoryContract('sqlite', async () => {
  const { db, close } = await migratedTestDatabase();
  const keyId = 'a1b2c3d4e5f60718';
  db.exec(`INSERT INTO owners (id, name, created_at) VALUES ('p', 'P', '2026-01-01T00:00:00.000Z');
    INSERT INTO api_keys (id, owner_id, name, permission, secret_digest, created_at)
      VALUES ('${keyId}', 'p', 'k', 'escribe', x'00', '2026-01-01T00:00:00.000Z');`);
  const read = db.prepare<[string], { calls: number; calls_by_route: string; last_used_at: string | null }>(
    'SELECT calls, calls_by_route, last_used_at FROM api_keys WHERE id = ?',
  );
  return {
    repo: new SqliteKeyUsageRepository(db),
    keyId,
    stored: async () => {
      const row = read.get(keyId)!;
      return { calls: row.calls, byRoute: JSON.parse(row.calls_by_route), lastUsedAt: row.last_used_at };
    },
    close,
  };
});
