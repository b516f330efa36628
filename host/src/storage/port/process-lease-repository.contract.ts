// The behaviour every ProcessLeaseRepository gives (issue #24): run against SQLite today, PostgreSQL next (issue #25).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProcessLeaseRepository } from './process-lease-repository.js';

export function processLeaseRepositoryContract(
  name: string,
  make: () => Promise<{ repo: ProcessLeaseRepository; other: ProcessLeaseRepository; close(): Promise<void> }>,
): void {
  test(`${name}: one owner holds a lease at a time; it is renewed by its owner and taken over only once expired`, async () => {
    const { repo, other, close } = await make();
    try {
      const races = await Promise.all([
        repo.acquire('purga', 'p1', 1000, 500),
        other.acquire('purga', 'p2', 1000, 500),
        repo.acquire('purga', 'p3', 1000, 500),
      ]);
      assert.deepEqual(races, [true, false, false], 'exactly one of the racers');
      assert.equal(await repo.acquire('purga', 'p1', 1400, 500), true, 'the owner renews (until 1900)');
      assert.equal(await other.acquire('purga', 'p2', 1600, 500), false, 'still live after its first term');
      assert.equal(await other.acquire('otra', 'p2', 1600, 500), true, 'leases are by name');
      assert.equal(await other.acquire('purga', 'p2', 1900, 500), true, 'expired: taken over');
      assert.equal(await repo.acquire('purga', 'p1', 1950, 500), false);
      await repo.release('purga', 'p1');
      assert.equal(await repo.acquire('purga', 'p1', 1950, 500), false, 'only the holder releases');
      await other.release('purga', 'p2');
      assert.equal(await repo.acquire('purga', 'p1', 1950, 500), true, 'released: free at once');
    } finally {
      await close();
    }
  });
}
