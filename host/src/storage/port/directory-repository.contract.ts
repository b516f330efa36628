import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccessFixture } from './access-fixture.js';
import type { DirectoryRepository, NewKeyRecord } from './directory-repository.js';

const newKey = (id: string, ownerId: string, createdAt: string, spaces: string[] = []): NewKeyRecord => ({
  id,
  ownerId,
  name: `clave ${id}`,
  spaces,
  permission: 'lee',
  secretDigest: Buffer.from(`digest-${id}`),
  createdByKey: null,
  createdAt,
  rateLimit: null,
  dailyQuota: null,
});

/** Two owners; A has an account and spaces "beta" (modules api, ventas) and "alfa" (none); B has "otro". */
async function seed(fixture: AccessFixture): Promise<void> {
  await fixture.owner({ id: 'own_a', name: 'Ana', email: 'ana@x.es', readOnly: true });
  await fixture.owner({ id: 'own_b', deletedAt: '2026-02-01T00:00:00.000Z' });
  await fixture.account({ id: 'cta_a', ownerId: 'own_a', credits: 50 });
  await fixture.account({ id: 'cta_b', ownerId: 'own_b' });
  await fixture.space({ id: 'beta', ownerId: 'own_a', accountId: 'cta_a', modules: ['ventas', 'api'] });
  await fixture.space({ id: 'alfa', ownerId: 'own_a', accountId: 'cta_a', apiEnabled: false });
  await fixture.space({ id: 'otro', ownerId: 'own_b', accountId: 'cta_b', modules: ['api'] });
}

/** The behaviour every directory backend must show (run per backend by its own test file). */
export function directoryRepositoryContract(
  name: string,
  make: () => Promise<{ repo: DirectoryRepository; fixture: AccessFixture; close(): Promise<void> }>,
): void {
  test(`${name}: spaces come with their sorted modules; an owner's spaces by id`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await seed(fixture);
      const beta = await repo.space('beta');
      assert.equal(beta?.row.owner_id, 'own_a');
      assert.equal(beta?.row.account_id, 'cta_a');
      assert.equal(beta?.row.api_enabled, 1);
      assert.deepEqual(beta?.modules, ['api', 'ventas']);
      assert.deepEqual((await repo.space('alfa'))?.modules, []);
      assert.equal(await repo.space('nada'), undefined);
      assert.deepEqual(
        (await repo.ownerSpaces('own_a')).map((s) => s.row.id),
        ['alfa', 'beta'],
      );
      assert.deepEqual(await repo.ownerSpaces('own_nadie'), []);
      const account = await repo.account('cta_a');
      assert.equal(account?.credits, 50);
      assert.equal(account?.owner_id, 'own_a');
      assert.equal(await repo.account('cta_nada'), undefined);
    } finally {
      await close();
    }
  });

  test(`${name}: an issued key is read back, with its owner's state, and listed oldest first`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await seed(fixture);
      await repo.insertKey(newKey('k2', 'own_a', '2026-03-02T00:00:00.000Z', ['beta']));
      await repo.insertKey(newKey('k1', 'own_a', '2026-03-01T00:00:00.000Z'));
      await repo.insertKey(newKey('kb', 'own_b', '2026-03-01T00:00:00.000Z'));
      const key = await repo.key('k2');
      assert.equal(key?.owner_id, 'own_a');
      assert.deepEqual(JSON.parse(key!.spaces), ['beta']);
      assert.equal(key?.permission, 'lee');
      assert.equal(key?.calls, 0);
      assert.equal(key?.revoked_at, null);
      assert.deepEqual(
        (await repo.ownerKeys('own_a')).map((k) => k.id),
        ['k1', 'k2'],
      );
      const credential = await repo.keyCredential('k2');
      assert.deepEqual(credential?.secret_digest, Buffer.from('digest-k2'));
      assert.equal(credential?.owner_read_only, 1);
      assert.equal(credential?.owner_deleted_at, null);
      assert.equal((await repo.keyCredential('kb'))?.owner_deleted_at, '2026-02-01T00:00:00.000Z');
      assert.equal(await repo.keyCredential('nada'), undefined);
    } finally {
      await close();
    }
  });

  test(`${name}: a key is revoked once, and the revocation is read at once`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await seed(fixture);
      await repo.insertKey(newKey('k1', 'own_a', '2026-03-01T00:00:00.000Z'));
      assert.equal(await repo.revokeKey('k1', '2026-03-03T00:00:00.000Z'), true);
      assert.equal(await repo.revokeKey('k1', '2026-03-04T00:00:00.000Z'), false);
      assert.equal(await repo.revokeKey('nada', '2026-03-04T00:00:00.000Z'), false);
      assert.equal((await repo.keyCredential('k1'))?.revoked_at, '2026-03-03T00:00:00.000Z');
    } finally {
      await close();
    }
  });

  test(`${name}: a key's own limits are stored at issue, changed and removed, and read with its credential`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await seed(fixture);
      await repo.insertKey({ ...newKey('k1', 'own_a', '2026-03-01T00:00:00.000Z'), rateLimit: 5, dailyQuota: 100 });
      const issued = await repo.keyCredential('k1');
      assert.deepEqual([issued?.rate_limit, issued?.daily_quota], [5, 100]);
      await repo.setKeyLimits('k1', 7, null);
      const changed = await repo.key('k1');
      assert.deepEqual([changed?.rate_limit, changed?.daily_quota], [7, null]);
      await repo.insertKey(newKey('k2', 'own_a', '2026-03-02T00:00:00.000Z'));
      const plain = await repo.keyCredential('k2');
      assert.deepEqual([plain?.rate_limit, plain?.daily_quota], [null, null], 'no limits of its own by default');
    } finally {
      await close();
    }
  });

  test(`${name}: a space's API switch and settings are stored as given`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await seed(fixture);
      await repo.setSpaceApi('beta', '{"limite_por_minuto":5}', false);
      const beta = await repo.space('beta');
      assert.equal(beta?.row.api_enabled, 0);
      assert.equal(beta?.row.api_settings, '{"limite_por_minuto":5}');
      await repo.setSpaceApi('alfa', '{}', true);
      assert.equal((await repo.space('alfa'))?.row.api_enabled, 1);
    } finally {
      await close();
    }
  });

  test(`${name}: operator credentials are read with their revocation`, async () => {
    const { repo, fixture, close } = await make();
    try {
      await fixture.operator({ id: 'op1', digest: Buffer.from('d1') });
      await fixture.operator({ id: 'op2', digest: Buffer.from('d2'), revokedAt: '2026-01-01T00:00:00.000Z' });
      assert.deepEqual(await repo.operator('op1'), { id: 'op1', secret_digest: Buffer.from('d1'), revoked_at: null });
      assert.equal((await repo.operator('op2'))?.revoked_at, '2026-01-01T00:00:00.000Z');
      assert.equal(await repo.operator('nada'), undefined);
    } finally {
      await close();
    }
  });
}
