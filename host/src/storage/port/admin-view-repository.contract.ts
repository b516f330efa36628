import assert from 'node:assert/strict';
import type { AdminViewRepository } from './admin-view-repository.js';
import { contractCase } from './contract-case.js';

/** An admin view repository under test and the directory writes that give it something to list. */
export interface AdminViewFixture {
  repo: AdminViewRepository;
  /** An owner (created at `createdAt`) with one account holding `credits`; returns the account's id. */
  addOwner(id: string, createdAt: string, credits: number): Promise<string>;
  deleteOwner(id: string): Promise<void>;
  addSpace(id: string, ownerId: string, accountId: string, modules: string[], createdAt: string): Promise<void>;
  addKey(id: string, ownerId: string, spaces: string[], createdAt: string, revoked: boolean): Promise<void>;
  close(): Promise<void>;
}

/** The behaviour every admin view repository must have, whatever its database. */
export function adminViewRepositoryContract(name: string, make: () => Promise<AdminViewFixture>): void {
  const withRepo = contractCase(name, make);

  withRepo('owners page in creation order with their account and spaces; deleted ones are gone', async (f) => {
    const account = await f.addOwner('own_b', '2026-01-02T00:00:00.000Z', 7);
    await f.addOwner('own_a', '2026-01-01T00:00:00.000Z', 0);
    await f.addOwner('own_c', '2026-01-03T00:00:00.000Z', 0);
    await f.addSpace('zeta', 'own_b', account, [], '2026-01-05T00:00:00.000Z');
    await f.addSpace('alfa', 'own_b', account, [], '2026-01-06T00:00:00.000Z');
    await f.deleteOwner('own_c');
    const page = await f.repo.owners(1, 1);
    assert.equal(page.total, 2);
    assert.deepEqual(page.items, [
      {
        id: 'own_b',
        name: 'Propietario own_b',
        email: null,
        readOnly: false,
        createdAt: '2026-01-02T00:00:00.000Z',
        account: { id: account, credits: 7, unpaidSince: null, suspended: false },
        spaces: ['alfa', 'zeta'],
      },
    ]);
    assert.equal((await f.repo.owner('own_a'))?.spaces.length, 0);
    assert.equal(await f.repo.owner('own_c'), null, 'deleted');
    assert.equal(await f.repo.owner('nadie'), null);
  });

  withRepo('spaces page all or per owner, with their modules in order', async (f) => {
    const a = await f.addOwner('own_a', '2026-01-01T00:00:00.000Z', 0);
    const b = await f.addOwner('own_b', '2026-01-01T00:00:00.000Z', 0);
    await f.addSpace('uno', 'own_a', a, ['ventas', 'api'], '2026-01-02T00:00:00.000Z');
    await f.addSpace('dos', 'own_b', b, [], '2026-01-03T00:00:00.000Z');
    assert.deepEqual(
      (await f.repo.spaces(10, 0)).items.map((s) => s.id),
      ['uno', 'dos'],
    );
    const mine = await f.repo.spaces(10, 0, 'own_a');
    assert.equal(mine.total, 1);
    assert.deepEqual(
      [mine.items[0]?.modules, mine.items[0]?.accountId, mine.items[0]?.apiEnabled],
      [['api', 'ventas'], a, true],
    );
    assert.equal((await f.repo.space('dos'))?.ownerId, 'own_b');
    assert.equal(await f.repo.space('tres'), null);
  });

  withRepo("an owner's keys page in creation order; a key's state says whether it is revoked", async (f) => {
    await f.addOwner('own_a', '2026-01-01T00:00:00.000Z', 0);
    await f.addOwner('own_b', '2026-01-01T00:00:00.000Z', 0);
    await f.addKey('0000000000000002', 'own_a', ['uno'], '2026-01-03T00:00:00.000Z', true);
    await f.addKey('0000000000000001', 'own_a', [], '2026-01-02T00:00:00.000Z', false);
    await f.addKey('0000000000000003', 'own_b', [], '2026-01-02T00:00:00.000Z', false);
    const keys = await f.repo.keys('own_a', 10, 0);
    assert.equal(keys.total, 2);
    assert.deepEqual(
      keys.items.map((k) => [k.id, k.spaces, k.revokedAt !== null]),
      [
        ['0000000000000001', [], false],
        ['0000000000000002', ['uno'], true],
      ],
    );
    assert.deepEqual(await f.repo.keyState('0000000000000002'), { revoked: true });
    assert.deepEqual(await f.repo.keyState('0000000000000003'), { revoked: false });
    assert.equal(await f.repo.keyState('ffffffffffffffff'), null);
  });
}
