import assert from 'node:assert/strict';
import { contractCase } from './contract-case.js';
import type { DirectoryRepository } from './directory-repository.js';
import type { OperatorDirectoryRepository } from './operator-directory-repository.js';

/** The operator's repository under test and the directory reads of the same database, to see what it wrote. */
export interface OperatorDirectoryFixture {
  repo: OperatorDirectoryRepository;
  directory: DirectoryRepository;
  close(): Promise<void>;
}

const AT = '2026-03-01T10:00:00.000Z';

async function ownerWithSpace(f: OperatorDirectoryFixture, owner = 'own_a', space = 'uno'): Promise<void> {
  await f.repo.createOwner({
    id: owner,
    name: 'Ana',
    email: `${owner}@x.es`,
    accountId: `cta_${owner}`,
    createdAt: AT,
  });
  await f.repo.createSpace({
    id: space,
    name: 'Uno',
    ownerId: owner,
    accountId: `cta_${owner}`,
    trialEndsAt: null,
    modules: ['ventas', 'api'],
    createdAt: AT,
  });
}

/** The behaviour every backend of the operator's writes must show. */
export function operatorDirectoryRepositoryContract(name: string, make: () => Promise<OperatorDirectoryFixture>): void {
  const withRepo = contractCase(name, make);

  withRepo('an empty directory; an owner comes with their account; a space with its modules', async (f) => {
    assert.equal(await f.repo.isEmpty(), true);
    await ownerWithSpace(f);
    assert.equal(await f.repo.isEmpty(), false);
    assert.equal(await f.repo.ownerLive('own_a'), true);
    assert.equal(await f.repo.ownerIdTaken('own_a'), true);
    assert.equal(await f.repo.accountOf('own_a'), 'cta_own_a');
    assert.equal(await f.repo.accountExists('cta_own_a'), true);
    assert.equal(await f.repo.spaceExists('uno'), true);
    assert.equal(await f.repo.spaceExists('dos'), false);
    assert.equal(await f.repo.accountOf('nadie'), undefined);
    const space = await f.directory.space('uno');
    assert.deepEqual(
      [space?.row.owner_id, space?.row.account_id, space?.modules],
      ['own_a', 'cta_own_a', ['api', 'ventas']],
    );
  });

  withRepo('an operator credential alone makes the directory not empty', async (f) => {
    await f.repo.insertOperatorCredential({ id: 'op1', name: 'ops', digest: Buffer.from('d'), createdAt: AT });
    assert.equal(await f.repo.isEmpty(), false);
    assert.deepEqual((await f.directory.operator('op1'))?.secret_digest, Buffer.from('d'));
  });

  withRepo('an owner whose account cannot be written is not written either', async (f) => {
    await ownerWithSpace(f);
    // The account id is taken: the owner's insert must be undone with it.
    await assert.rejects(
      f.repo.createOwner({ id: 'own_b', name: 'Bea', email: null, accountId: 'cta_own_a', createdAt: AT }),
    );
    assert.equal(await f.repo.ownerIdTaken('own_b'), false);
  });

  withRepo('a deleted owner leaves their spaces unowned, keeps their id taken', async (f) => {
    await ownerWithSpace(f);
    assert.equal(await f.repo.deleteOwner('own_a', AT), true);
    assert.equal(await f.repo.deleteOwner('own_a', AT), false, 'already deleted');
    assert.equal(await f.repo.ownerLive('own_a'), false);
    assert.equal(await f.repo.ownerIdTaken('own_a'), true);
    assert.equal((await f.directory.space('uno'))?.row.owner_id, null);
    assert.equal(await f.repo.setOwnerReadOnly('own_a', true), false, 'a deleted owner is not changed');
  });

  withRepo('space changes write only the columns given; an unknown space changes nothing', async (f) => {
    await ownerWithSpace(f);
    assert.equal(await f.repo.changeSpace('uno', { trialEndsAt: '2026-04-01T00:00:00.000Z', apiEnabled: false }), true);
    let row = (await f.directory.space('uno'))?.row;
    assert.deepEqual(
      [row?.owner_id, row?.trial_ends_at, row?.api_enabled, row?.owner_read_only],
      ['own_a', '2026-04-01T00:00:00.000Z', 0, 0],
    );
    assert.equal(await f.repo.changeSpace('uno', { ownerId: null, trialEndsAt: null, ownerReadOnly: true }), true);
    row = (await f.directory.space('uno'))?.row;
    assert.deepEqual([row?.owner_id, row?.trial_ends_at, row?.api_enabled, row?.owner_read_only], [null, null, 0, 1]);
    assert.equal(await f.repo.changeSpace('uno', {}), true, 'nothing to change, but the space exists');
    assert.equal(await f.repo.changeSpace('dos', { apiEnabled: true }), false);
    assert.equal(await f.repo.changeSpace('dos', {}), false);
  });

  withRepo('modules: enabling twice keeps one; disabling tells whether the space had it', async (f) => {
    await ownerWithSpace(f);
    await f.repo.enableModule('uno', 'marca', AT);
    await f.repo.enableModule('uno', 'marca', AT);
    assert.deepEqual((await f.directory.space('uno'))?.modules, ['api', 'marca', 'ventas']);
    assert.equal(await f.repo.disableModule('uno', 'ventas'), true);
    assert.equal(await f.repo.disableModule('uno', 'ventas'), false);
    assert.deepEqual((await f.directory.space('uno'))?.modules, ['api', 'marca']);
  });

  withRepo('payment and quota patches keep what they are not given', async (f) => {
    await ownerWithSpace(f);
    assert.deepEqual(await f.repo.patchPayment('cta_own_a', { suspended: true }), {
      unpaidSince: null,
      suspended: true,
    });
    assert.deepEqual(await f.repo.patchPayment('cta_own_a', { unpaidSince: '2026-02-01T00:00:00.000Z' }), {
      unpaidSince: '2026-02-01T00:00:00.000Z',
      suspended: true,
    });
    const account = await f.directory.account('cta_own_a');
    assert.deepEqual([account?.unpaid_since, account?.suspended], ['2026-02-01T00:00:00.000Z', 1]);
    assert.equal(await f.repo.patchPayment('cta_nadie', {}), undefined);
    assert.deepEqual(await f.repo.patchQuota('cta_own_a', { bytes: 1000 }), { bytes: 1000, documents: null });
    assert.deepEqual(await f.repo.patchQuota('cta_own_a', { documents: 0 }), { bytes: 1000, documents: 0 });
    assert.deepEqual(await f.repo.patchQuota('cta_own_a', { bytes: null }), { bytes: null, documents: 0 });
    assert.equal(await f.repo.patchQuota('cta_nadie', { bytes: 1 }), undefined);
  });

  withRepo('patches of different fields of one account at once both stay', async (f) => {
    await ownerWithSpace(f);
    await Promise.all([
      f.repo.patchPayment('cta_own_a', { suspended: true }),
      f.repo.patchPayment('cta_own_a', { unpaidSince: '2026-02-01T00:00:00.000Z' }),
      f.repo.patchQuota('cta_own_a', { bytes: 5 }),
      f.repo.patchQuota('cta_own_a', { documents: 7 }),
    ]);
    const account = await f.directory.account('cta_own_a');
    assert.deepEqual([account?.unpaid_since, account?.suspended], ['2026-02-01T00:00:00.000Z', 1]);
    assert.deepEqual(await f.repo.patchQuota('cta_own_a', {}), { bytes: 5, documents: 7 });
  });
}
