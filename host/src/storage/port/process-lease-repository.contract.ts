// The behaviour every ProcessLeaseRepository gives (issue #24), on SQLite and PostgreSQL (storage/contracts/).
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
      // Which racer a server sees first is not for the test to choose (two connections, two hosts): any one of them.
      const racers = [
        { repo, owner: 'p1' },
        { repo: other, owner: 'p2' },
        { repo, owner: 'p3' },
      ];
      const races = await Promise.all(racers.map((r) => r.repo.acquire('purga', r.owner, 1000, 500)));
      assert.equal(races.filter(Boolean).length, 1, 'exactly one of the racers');
      const holder = racers[races.indexOf(true)]!;
      const rival = racers.find((r) => r !== holder && r.repo !== holder.repo) ?? racers.find((r) => r !== holder)!;
      assert.equal(await holder.repo.acquire('purga', holder.owner, 1400, 500), true, 'the owner renews (until 1900)');
      assert.equal(await rival.repo.acquire('purga', rival.owner, 1600, 500), false, 'still live after its first term');
      assert.equal(await rival.repo.acquire('otra', rival.owner, 1600, 500), true, 'leases are by name');
      assert.equal(await rival.repo.acquire('purga', rival.owner, 1900, 500), true, 'expired: taken over');
      assert.equal(await holder.repo.acquire('purga', holder.owner, 1950, 500), false);
      await holder.repo.release('purga', holder.owner);
      assert.equal(await holder.repo.acquire('purga', holder.owner, 1950, 500), false, 'only the holder releases');
      await rival.repo.release('purga', rival.owner);
      assert.equal(await holder.repo.acquire('purga', holder.owner, 1950, 500), true, 'released: free at once');
    } finally {
      await close();
    }
  });
}
