import 'reflect-metadata';
import { keyUsageRepositoryContract } from '../port/key-usage-repository.contract.js';
import { PgKeyUsageRepository } from '../postgres/pg-key-usage-repository.js';
import { SqliteKeyUsageRepository } from '../sqlite/key-usage-repository.js';
import { migratedTestDatabase } from '../sqlite/migrated-test-database.js';
import { onEachBackend } from './each-backend.js';

const keyId = 'a1b2c3d4e5f60718';
const CREATED = '2026-01-01T00:00:00.000Z';

interface StoredKey {
  calls: number;
  calls_by_route: string;
  last_used_at: string | null;
}

/** The key's counters as the key listing reads them. */
const stored = (row: StoredKey) => ({
  calls: row.calls,
  byRoute: JSON.parse(row.calls_by_route) as Record<string, number>,
  lastUsedAt: row.last_used_at,
});

await onEachBackend(keyUsageRepositoryContract, {
  async sqlite() {
    const { db, close } = await migratedTestDatabase();
    db.prepare('INSERT INTO owners (id, name, created_at) VALUES (?, ?, ?)').run('p', 'P', CREATED);
    db.prepare(
      "INSERT INTO api_keys (id, owner_id, name, permission, secret_digest, created_at) VALUES (?, 'p', 'k', 'escribe', x'00', ?)",
    ).run(keyId, CREATED);
    const read = db.prepare<[string], StoredKey>(
      'SELECT calls, calls_by_route, last_used_at FROM api_keys WHERE id = ?',
    );
    return { repo: new SqliteKeyUsageRepository(db), keyId, stored: async () => stored(read.get(keyId)!), close };
  },
  async postgres({ pool }) {
    await pool.query('INSERT INTO owners (id, name, created_at) VALUES ($1, $2, $3)', ['p', 'P', CREATED]);
    await pool.query(
      "INSERT INTO api_keys (id, owner_id, name, permission, secret_digest, created_at) VALUES ($1, 'p', 'k', 'escribe', $2, $3)",
      [keyId, Buffer.from([0]), CREATED],
    );
    return {
      repo: new PgKeyUsageRepository(pool),
      keyId,
      stored: async () =>
        stored(
          (
            await pool.query<StoredKey>('SELECT calls, calls_by_route, last_used_at FROM api_keys WHERE id = $1', [
              keyId,
            ])
          ).rows[0]!,
        ),
      close: async () => undefined,
    };
  },
});
