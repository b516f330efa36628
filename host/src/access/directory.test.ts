import 'reflect-metadata';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { openDatabase } from '../storage/database.js';
import { openMigratedTestDatabase, sqliteAccessFixture } from '../storage/sqlite/access-fixture.js';
import { SqliteChangeVersionRepository } from '../storage/sqlite/change-version-repository.js';
import { SqliteDirectoryRepository } from '../storage/sqlite/directory-repository.js';
import { MemoisedAccessDirectory } from './directory.js';

/** Two "processes": each its own connection to one database file, its own repositories and its own memo. */
async function twoProcesses() {
  const first = openMigratedTestDatabase();
  const secondDb = openDatabase(join(first.db.name, '..', 'cerebro.db'));
  const fixture = sqliteAccessFixture(first.db);
  await fixture.owner({ id: 'own_a' });
  await fixture.account({ id: 'cta_a', ownerId: 'own_a' });
  await fixture.space({ id: 'demo', ownerId: 'own_a', accountId: 'cta_a', modules: ['api'] });
  const process = (db: typeof first.db) => {
    const repo = new SqliteDirectoryRepository(db);
    let reads = 0;
    const counted = Object.assign(Object.create(repo) as SqliteDirectoryRepository, {
      keyCredential: (id: string) => {
        reads++;
        return repo.keyCredential(id);
      },
    });
    return {
      repo,
      directory: new MemoisedAccessDirectory(counted, new SqliteChangeVersionRepository(db)),
      reads: () => reads,
    };
  };
  const a = process(first.db);
  const b = process(secondDb);
  await a.repo.insertKey({
    id: 'k1',
    ownerId: 'own_a',
    name: 'k',
    spaces: [],
    permission: 'lee',
    secretDigest: Buffer.from('d'),
    createdByKey: null,
    createdAt: '2026-03-01T00:00:00.000Z',
    rateLimit: null,
    dailyQuota: null,
  });
  return {
    a,
    b,
    close: async () => {
      secondDb.close();
      await first.close();
    },
  };
}

test('a memoised key is read from storage once, until the directory version moves', async () => {
  const { a, close } = await twoProcesses();
  try {
    assert.equal((await a.directory.keyCredential('k1'))?.revoked_at, null);
    await nextTurn();
    await a.directory.keyCredential('k1');
    await nextTurn();
    await a.directory.keyCredential('k1');
    assert.equal(a.reads(), 1, 'memo hits do not read the key again');
    assert.ok(!(a.directory.keyCredential('k1') instanceof Promise), 'a hit after the turn is checked is synchronous');
    await a.repo.revokeKey('k1', '2026-03-02T00:00:00.000Z');
    await a.directory.invalidate();
    assert.equal((await a.directory.keyCredential('k1'))?.revoked_at, '2026-03-02T00:00:00.000Z', 'at once');
    assert.equal(a.reads(), 2);
  } finally {
    await close();
  }
});

test("another process's revocation is seen by the first read after the event loop turns", async () => {
  const { a, b, close } = await twoProcesses();
  try {
    assert.equal((await a.directory.keyCredential('k1'))?.revoked_at, null);
    assert.deepEqual((await a.directory.space('demo'))?.modules, ['api']);
    await b.repo.revokeKey('k1', '2026-03-02T00:00:00.000Z');
    await b.directory.invalidate();
    await nextTurn();
    assert.equal((await a.directory.keyCredential('k1'))?.revoked_at, '2026-03-02T00:00:00.000Z');
    await b.repo.setSpaceApi('demo', '{}', false);
    await b.directory.invalidate();
    await nextTurn();
    assert.equal((await a.directory.space('demo'))?.row.api_enabled, 0, 'spaces are memoised the same way');
  } finally {
    await close();
  }
});
