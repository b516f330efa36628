import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProcessLeaseRepository } from './process-lease-repository.js';

/** The behaviour every process-lease backend must show (run per backend by its own test file). */
export function processLeaseRepositoryContract(
  name: string,
  make: () => Promise<{ repo: ProcessLeaseRepository; close(): Promise<void> }>,
): void {
  test(`${name}: a lease is held by one owner until it expires, renewed only by its holder`, async () => {
    const { repo, close } = await make();
    try {
      assert.equal(await repo.acquire('purga', 'a', 1_000, 500), true, 'a free lease is taken');
      assert.equal(await repo.acquire('purga', 'b', 1_200, 500), false, 'not while its holder is within the lease');
      assert.equal(await repo.acquire('purga', 'a', 1_400, 500), true, 'the holder renews it (now until 1900)');
      assert.equal(await repo.acquire('purga', 'b', 1_800, 500), false, 'the renewal counts');
      assert.equal(await repo.acquire('otra', 'b', 1_800, 500), true, 'names are independent');
      assert.equal(await repo.acquire('purga', 'b', 1_900, 500), true, 'an expired lease is taken over');
      assert.equal(await repo.acquire('purga', 'a', 1_950, 500), false, 'and the old holder has lost it');
    } finally {
      await close();
    }
  });

  test(`${name}: only the holder gives a lease up`, async () => {
    const { repo, close } = await make();
    try {
      await repo.acquire('purga', 'a', 0, 10_000);
      await repo.release('purga', 'b');
      assert.equal(await repo.acquire('purga', 'b', 1, 10_000), false, 'another owner cannot release it');
      await repo.release('purga', 'a');
      assert.equal(await repo.acquire('purga', 'b', 2, 10_000), true, 'released by its holder, it is free');
    } finally {
      await close();
    }
  });

  test(`${name}: of owners racing for a free lease exactly one gets it`, async () => {
    const { repo, close } = await make();
    try {
      const won = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((owner) => repo.acquire('purga', owner, 0, 1_000)));
      assert.equal(won.filter(Boolean).length, 1);
    } finally {
      await close();
    }
  });
}
