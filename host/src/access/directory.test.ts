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
  const a = { ...process(first.db), db: first.db };
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

test('on a database outside the process, one version read serves every read of a request that arrived before it', async () => {
  const { a, b, close } = await twoProcesses();
  // PostgreSQL's shape: the version is only read asynchronously (no readNow), each read a round trip.
  const versions = new SqliteChangeVersionRepository(a.db);
  let versionReads = 0;
  const remote = {
    bump: (name: string) => versions.bump(name),
    read: async (name: string) => {
      versionReads++;
      await nextTurn(); // the answer comes back in a later turn, as a socket's would
      return versions.read(name);
    },
  };
  const directory = new MemoisedAccessDirectory(new SqliteDirectoryRepository(a.db), remote);
  try {
    // One request: its key, its space, its account and its owner's spaces (GET /companies), each read after the
    // previous one's await.
    const request = async () => {
      const since = performance.now();
      const key = await directory.keyCredential('k1', since);
      const space = await directory.space('demo', since);
      await directory.accountStanding(space!.row.account_id, since);
      await directory.ownerSpaces(key!.owner_id, since);
      return key;
    };
    await request();
    assert.equal(versionReads, 1, 'one version read for the four reads of the request');
    await request();
    assert.equal(versionReads, 2, 'a later request never reuses a check that started before it arrived');

    // Two requests in flight together share the check the first one started, if they arrived before it started.
    const since = performance.now();
    await Promise.all([directory.keyCredential('k1', since), directory.space('demo', since)]);
    assert.equal(versionReads, 3);

    // Revocation stays immediate: acknowledged by another process before the request arrived, it is seen.
    await b.repo.revokeKey('k1', '2026-03-02T00:00:00.000Z');
    await b.directory.invalidate();
    assert.equal((await request())?.revoked_at, '2026-03-02T00:00:00.000Z');
    assert.equal(versionReads, 4);

    // Without `since` (a caller outside a request) the turn's check applies, as before.
    await directory.space('demo');
    assert.equal(versionReads, 5);
  } finally {
    await close();
  }
});
