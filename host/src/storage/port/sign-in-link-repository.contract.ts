import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccessFixture } from './access-fixture.js';
import type { SignInLinkRepository } from './sign-in-link-repository.js';

const link = (id: string, ownerId: string, expiresAt: string) => ({
  id,
  ownerId,
  secretDigest: Buffer.from(`digest-${id}`),
  createdAt: '2026-03-01T00:00:00.000Z',
  expiresAt,
});

/** The behaviour every sign-in-link backend must show (run per backend by its own test file). */
export function signInLinkRepositoryContract(
  name: string,
  make: () => Promise<{ repo: SignInLinkRepository; fixture: AccessFixture; close(): Promise<void> }>,
): void {
  test(`${name}: a link is found by id and used once, only before it expires`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await fixture.owner({ id: 'own_a' });
      await repo.insert(link('l1', 'own_a', '2026-03-01T00:30:00.000Z'), '2026-02-28T00:00:00.000Z');
      await repo.insert(link('l2', 'own_a', '2026-03-01T00:30:00.000Z'), '2026-02-28T00:00:00.000Z');
      assert.deepEqual(await repo.find('l1'), { ownerId: 'own_a', secretDigest: Buffer.from('digest-l1') });
      assert.equal(await repo.find('nope'), undefined);
      assert.equal(await repo.use('l1', '2026-03-01T00:10:00.000Z'), true);
      assert.equal(await repo.use('l1', '2026-03-01T00:11:00.000Z'), false, 'never twice');
      assert.equal(await repo.use('l2', '2026-03-01T00:30:00.000Z'), false, 'not at or after its expiry');
      assert.equal(await repo.use('nope', '2026-03-01T00:10:00.000Z'), false);
    } finally {
      await close();
    }
  });

  test(`${name}: two uses of one link at once: exactly one succeeds`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await fixture.owner({ id: 'own_a' });
      await repo.insert(link('l1', 'own_a', '2026-03-01T00:30:00.000Z'), '2026-02-28T00:00:00.000Z');
      const uses = await Promise.all([1, 2, 3].map(() => repo.use('l1', '2026-03-01T00:10:00.000Z')));
      assert.equal(uses.filter(Boolean).length, 1);
    } finally {
      await close();
    }
  });

  test(`${name}: inserting drops links expired before the given time; deleted owners are not active`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await fixture.owner({ id: 'own_a' });
      await fixture.owner({ id: 'own_gone', deletedAt: '2026-02-01T00:00:00.000Z' });
      await repo.insert(link('old', 'own_a', '2026-01-01T00:00:00.000Z'), '2025-01-01T00:00:00.000Z');
      await repo.insert(link('new', 'own_a', '2026-03-01T00:30:00.000Z'), '2026-02-01T00:00:00.000Z');
      assert.equal(await repo.find('old'), undefined);
      assert.ok(await repo.find('new'));
      assert.equal(await repo.ownerActive('own_a'), true);
      assert.equal(await repo.ownerActive('own_gone'), false);
      assert.equal(await repo.ownerActive('own_nadie'), false);
    } finally {
      await close();
    }
  });
}
