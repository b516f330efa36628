import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccessFixture } from './access-fixture.js';
import type { ConsoleSessionRepository, NewSessionRecord } from './console-session-repository.js';

export const session = (id: string, ownerId: string, createdAt: string, expiresAt: string): NewSessionRecord => ({
  id,
  ownerId,
  secretDigest: Buffer.from(`digest-${id}`),
  createdAt,
  expiresAt,
  maxExpiresAt: '2026-12-31T00:00:00.000Z',
  userAgent: 'Navegador',
  ip: '10.0.0.1',
  origin: 'clave',
});

/** The behaviour every console-session backend must show (run per backend by its own test file). */
export function consoleSessionRepositoryContract(
  name: string,
  make: () => Promise<{ repo: ConsoleSessionRepository; fixture: AccessFixture; close(): Promise<void> }>,
): void {
  test(`${name}: a session is stored as opened and read with its owner's state`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await fixture.owner({ id: 'own_a', readOnly: true });
      await repo.insert(session('s1', 'own_a', '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'));
      const row = await repo.find('s1');
      assert.ok(row);
      assert.equal(row.owner_id, 'own_a');
      assert.deepEqual(row.secret_digest, Buffer.from('digest-s1'));
      assert.equal(row.last_seen_at, '2026-03-01T00:00:00.000Z', 'opening is its first use');
      assert.equal(row.revoked_at, null);
      assert.equal(row.origin, 'clave');
      assert.equal(row.user_agent, 'Navegador');
      const withOwner = await repo.findWithOwner('s1');
      assert.equal(withOwner?.owner_read_only, 1);
      assert.equal(withOwner?.owner_deleted_at, null);
      assert.equal(await repo.find('nope'), undefined);
    } finally {
      await close();
    }
  });

  test(`${name}: touching pushes the idle expiry of an open session, never of a revoked one`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await fixture.owner({ id: 'own_a' });
      await repo.insert(session('s1', 'own_a', '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'));
      await repo.touch('s1', '2026-03-01T05:00:00.000Z', '2026-03-02T05:00:00.000Z');
      const touched = await repo.find('s1');
      assert.equal(touched?.last_seen_at, '2026-03-01T05:00:00.000Z');
      assert.equal(touched?.expires_at, '2026-03-02T05:00:00.000Z');
      assert.equal(await repo.revoke('s1', 'own_a', '2026-03-01T06:00:00.000Z'), true);
      await repo.touch('s1', '2026-03-01T07:00:00.000Z', '2026-03-02T07:00:00.000Z');
      assert.equal((await repo.find('s1'))?.expires_at, '2026-03-02T05:00:00.000Z');
    } finally {
      await close();
    }
  });

  test(`${name}: the owner's open sessions, newest first; revoking needs the owner and happens once`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await fixture.owner({ id: 'own_a' });
      await fixture.owner({ id: 'own_b' });
      await repo.insert(session('s1', 'own_a', '2026-03-01T00:00:00.000Z', '2026-03-09T00:00:00.000Z'));
      await repo.insert(session('s2', 'own_a', '2026-03-02T00:00:00.000Z', '2026-03-09T00:00:00.000Z'));
      await repo.insert(session('s3', 'own_a', '2026-03-03T00:00:00.000Z', '2026-03-04T00:00:00.000Z'));
      await repo.insert(session('s4', 'own_b', '2026-03-03T00:00:00.000Z', '2026-03-09T00:00:00.000Z'));
      const now = '2026-03-05T00:00:00.000Z';
      assert.deepEqual(
        (await repo.active('own_a', now)).map((s) => s.id),
        ['s2', 's1'],
        'the idle-expired s3 and the other owner s4 are not listed',
      );
      assert.equal(await repo.revoke('s1', 'own_b', now), false, "not another owner's");
      assert.equal(await repo.revoke('s1', 'own_a', now), true);
      assert.equal(await repo.revoke('s1', 'own_a', now), false, 'already revoked');
      assert.equal((await repo.find('s1'))?.revoked_at, now);
      assert.deepEqual(
        (await repo.active('own_a', now)).map((s) => s.id),
        ['s2'],
      );
    } finally {
      await close();
    }
  });

  test(`${name}: revoking the others keeps one session (or none) and counts what it closed`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await fixture.owner({ id: 'own_a' });
      await fixture.owner({ id: 'own_b' });
      for (const id of ['s1', 's2', 's3'])
        await repo.insert(session(id, 'own_a', '2026-03-01T00:00:00.000Z', '2026-03-09T00:00:00.000Z'));
      await repo.insert(session('s4', 'own_b', '2026-03-01T00:00:00.000Z', '2026-03-09T00:00:00.000Z'));
      await repo.revoke('s3', 'own_a', '2026-03-01T01:00:00.000Z');
      assert.equal(await repo.revokeOthers('own_a', 's1', '2026-03-01T02:00:00.000Z'), 1, 'only s2 was open');
      assert.equal((await repo.find('s1'))?.revoked_at, null);
      assert.equal((await repo.find('s3'))?.revoked_at, '2026-03-01T01:00:00.000Z', 'an earlier revocation stays');
      assert.equal(await repo.revokeOthers('own_a', null, '2026-03-01T03:00:00.000Z'), 1);
      assert.equal((await repo.find('s4'))?.revoked_at, null, "another owner's sessions are untouched");
    } finally {
      await close();
    }
  });

  test(`${name}: pruning deletes sessions that ended before a time, keeps the rest`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await fixture.owner({ id: 'own_a' });
      await repo.insert(session('revoked', 'own_a', '2026-01-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z'));
      await repo.revoke('revoked', 'own_a', '2026-01-02T00:00:00.000Z');
      await repo.insert(session('expired', 'own_a', '2026-01-01T00:00:00.000Z', '2026-01-03T00:00:00.000Z'));
      await repo.insert(session('open', 'own_a', '2026-01-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z'));
      await repo.prune('2026-02-01T00:00:00.000Z');
      assert.equal(await repo.find('revoked'), undefined);
      assert.equal(await repo.find('expired'), undefined);
      assert.ok(await repo.find('open'));
    } finally {
      await close();
    }
  });
}
