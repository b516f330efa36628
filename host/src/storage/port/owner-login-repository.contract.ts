import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccessFixture } from './access-fixture.js';
import type { ConsoleSessionRepository } from './console-session-repository.js';
import { session } from './console-session-repository.contract.js';
import type { OwnerLoginRepository } from './owner-login-repository.js';

/** The behaviour every owner-login backend must show (run per backend by its own test file). */
export function ownerLoginRepositoryContract(
  name: string,
  make: () => Promise<{
    repo: OwnerLoginRepository;
    sessions: ConsoleSessionRepository;
    fixture: AccessFixture;
    close(): Promise<void>;
  }>,
): void {
  test(`${name}: owners are found by id and by email, never once deleted`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await fixture.owner({ id: 'own_a', name: 'Ana', email: 'ana@x.es' });
      await fixture.owner({ id: 'own_gone', email: 'ida@x.es', deletedAt: '2026-01-01T00:00:00.000Z' });
      assert.deepEqual(await repo.byId('own_a'), {
        id: 'own_a',
        name: 'Ana',
        email: 'ana@x.es',
        password_digest: null,
        deleted_at: null,
      });
      assert.equal((await repo.byEmail('ana@x.es'))?.id, 'own_a');
      assert.equal(await repo.byId('own_gone'), undefined);
      assert.equal(await repo.byEmail('ida@x.es'), undefined);
      assert.equal(await repo.byEmail('nadie@x.es'), undefined);
    } finally {
      await close();
    }
  });

  test(`${name}: email and name are changed as given`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await fixture.owner({ id: 'own_a', name: 'Ana', email: 'ana@x.es' });
      await repo.setEmail('own_a', 'nueva@x.es');
      await repo.setName('own_a', 'Ana María');
      assert.equal(await repo.byEmail('ana@x.es'), undefined);
      const row = await repo.byEmail('nueva@x.es');
      assert.equal(row?.name, 'Ana María');
    } finally {
      await close();
    }
  });

  test(`${name}: a new password closes the owner's other open sessions together`, async () => {
    const { repo, sessions, fixture, close } = await make();
    try {
      await fixture.owner({ id: 'own_a' });
      await fixture.owner({ id: 'own_b' });
      for (const id of ['s1', 's2', 's3'])
        await sessions.insert(session(id, 'own_a', '2026-03-01T00:00:00.000Z', '2026-03-09T00:00:00.000Z'));
      await sessions.insert(session('s4', 'own_b', '2026-03-01T00:00:00.000Z', '2026-03-09T00:00:00.000Z'));
      const at = '2026-03-01T01:00:00.000Z';
      assert.equal(await repo.setPassword('own_a', 'scrypt$digest', at, 's1'), 2);
      assert.equal((await repo.byId('own_a'))?.password_digest, 'scrypt$digest');
      assert.equal((await sessions.find('s1'))?.revoked_at, null, 'the session that changed it stays');
      assert.equal((await sessions.find('s2'))?.revoked_at, at);
      assert.equal((await sessions.find('s4'))?.revoked_at, null);
      assert.equal(await repo.setPassword('own_a', 'scrypt$otro', at, null), 1, 'without one to keep, all close');
    } finally {
      await close();
    }
  });
}
