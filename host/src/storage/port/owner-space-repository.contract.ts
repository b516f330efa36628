import assert from 'node:assert/strict';
import type { AccessFixture } from './access-fixture.js';
import { contractCase } from './contract-case.js';
import type { DirectoryRepository } from './directory-repository.js';
import type { NewSpaceRecord } from './operator-directory-repository.js';
import type { OwnerSpaceRepository } from './owner-space-repository.js';

/** The repository under test, the fixture that seeds owners and spaces, and the directory reads to see the writes. */
export interface OwnerSpaceFixture {
  repo: OwnerSpaceRepository;
  fixture: AccessFixture;
  directory: DirectoryRepository;
  close(): Promise<void>;
}

const AT = '2026-03-01T10:00:00.000Z';

const newSpace = (id: string, ownerId = 'own_a'): NewSpaceRecord => ({
  id,
  name: `Espacio ${id}`,
  ownerId,
  accountId: `cta_${ownerId}`,
  trialEndsAt: null,
  modules: ['api'],
  createdAt: AT,
});

/** Owner `own_a` (account `cta_own_a`) holding space `uno`; owner `own_b` holding nothing; a deleted owner. */
async function seed(f: OwnerSpaceFixture): Promise<void> {
  await f.fixture.owner({ id: 'own_a' });
  await f.fixture.account({ id: 'cta_own_a', ownerId: 'own_a' });
  await f.fixture.space({ id: 'uno', ownerId: 'own_a', accountId: 'cta_own_a' });
  await f.fixture.owner({ id: 'own_b' });
  await f.fixture.account({ id: 'cta_own_b', ownerId: 'own_b' });
  await f.fixture.owner({ id: 'own_x', deletedAt: AT });
}

/** The behaviour every backend of an owner's own spaces must show. */
export function ownerSpaceRepositoryContract(name: string, make: () => Promise<OwnerSpaceFixture>): void {
  const withRepo = contractCase(name, make);

  withRepo('the allowance counts the spaces an owner holds; the own value is null until set', async (f) => {
    await seed(f);
    assert.deepEqual(await f.repo.allowance('own_a'), { own: null, spaces: 1 });
    assert.deepEqual(await f.repo.allowance('own_b'), { own: null, spaces: 0 });
    assert.equal(await f.repo.allowance('own_x'), undefined, 'a deleted owner has none');
    assert.equal(await f.repo.allowance('nadie'), undefined);
    assert.equal(await f.repo.setAllowance('own_a', 3), true);
    assert.deepEqual(await f.repo.allowance('own_a'), { own: 3, spaces: 1 });
    assert.equal(await f.repo.setAllowance('own_a', null), true);
    assert.deepEqual(await f.repo.allowance('own_a'), { own: null, spaces: 1 });
    assert.equal(await f.repo.setAllowance('own_x', 3), false);
    assert.equal(await f.repo.setAllowance('nadie', 3), false);
  });

  withRepo('a space is created with its modules below the allowance, and nothing is written at it', async (f) => {
    await seed(f);
    assert.equal(await f.repo.createWithin(newSpace('dos'), 2), 'created');
    const created = await f.directory.space('dos');
    assert.deepEqual(
      [created?.row.name, created?.row.owner_id, created?.row.account_id, created?.modules],
      ['Espacio dos', 'own_a', 'cta_own_a', ['api']],
    );
    assert.equal(await f.repo.createWithin(newSpace('tres'), 2), 'over_allowance');
    assert.equal(await f.directory.space('tres'), undefined);
    assert.deepEqual(await f.repo.allowance('own_a'), { own: null, spaces: 2 });
  });

  withRepo("an owner's own allowance wins over the default, both ways", async (f) => {
    await seed(f);
    await f.repo.setAllowance('own_b', 0);
    assert.equal(await f.repo.createWithin(newSpace('b1', 'own_b'), 5), 'over_allowance');
    await f.repo.setAllowance('own_a', 2);
    assert.equal(await f.repo.createWithin(newSpace('a2'), 0), 'created');
    assert.equal(await f.repo.createWithin(newSpace('a3'), 0), 'over_allowance');
  });

  withRepo('a taken id and an owner that is not live create nothing', async (f) => {
    await seed(f);
    await f.repo.setAllowance('own_b', 5);
    assert.equal(await f.repo.createWithin(newSpace('uno', 'own_b'), 5), 'taken');
    assert.equal((await f.directory.space('uno'))?.row.owner_id, 'own_a', 'the existing space is untouched');
    assert.equal(await f.repo.createWithin(newSpace('x1', 'own_x'), 5), 'no_owner');
    assert.equal(await f.repo.createWithin(newSpace('n1', 'nadie'), 5), 'no_owner');
    assert.equal(await f.directory.space('x1'), undefined);
  });

  withRepo('creations at once for one owner never pass the allowance together', async (f) => {
    await seed(f);
    const outcomes = await Promise.all(['c1', 'c2', 'c3', 'c4'].map((id) => f.repo.createWithin(newSpace(id), 3)));
    assert.deepEqual(outcomes.filter((o) => o === 'created').length, 2, outcomes.join(', '));
    assert.deepEqual(await f.repo.allowance('own_a'), { own: null, spaces: 3 });
  });

  withRepo('renaming changes only the display name; an unknown space is not renamed', async (f) => {
    await seed(f);
    assert.equal(await f.repo.rename('uno', 'Tienda Sol'), true);
    const row = (await f.directory.space('uno'))?.row;
    assert.deepEqual([row?.id, row?.name, row?.owner_id], ['uno', 'Tienda Sol', 'own_a']);
    assert.equal(await f.repo.rename('nadie', 'X'), false);
  });
}
