import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StorageQuotaRepository } from './storage-quota-repository.js';

/**
 * The behaviour every storage quota backend must show. `make` gives a store where account `full` has two spaces
 * holding documents of 100, 250 (one space) and 50 bytes (the other), own quotas of 1000 bytes and no document
 * quota; account `vacia` has no documents and no own quotas; account `otra` holds a 999-byte document (id `d4`, space
 * `cuatro`); `exec` runs SQL both databases take as it is.
 */
/** A check that lets every hold in. */
const always = () => {};

export function storageQuotaRepositoryContract(
  name: string,
  make: () => Promise<{ repo: StorageQuotaRepository; exec(sql: string): Promise<void>; close(): Promise<void> }>,
): void {
  test(`${name}: an account's documents are summed over all its spaces, with its own quotas`, async () => {
    const { repo, close } = await make();
    try {
      assert.deepEqual(await repo.accountStorage('full'), {
        bytes: 400,
        documents: 3,
        ownBytesQuota: 1000,
        ownDocumentsQuota: null,
      });
      assert.deepEqual(await repo.accountStorage('vacia'), {
        bytes: 0,
        documents: 0,
        ownBytesQuota: null,
        ownDocumentsQuota: null,
      });
      assert.deepEqual(await repo.accountStorage('desconocida'), {
        bytes: 0,
        documents: 0,
        ownBytesQuota: null,
        ownDocumentsQuota: null,
      });
    } finally {
      await close();
    }
  });

  test(`${name}: holds are summed per account until they end, leaving one out on request`, async () => {
    const { repo, close } = await make();
    try {
      const now = 1_000_000;
      await repo.holdIfFits({ id: 'h1', accountId: 'full', bytes: 10, documents: 1, until: now + 60_000 }, now, always);
      await repo.holdIfFits({ id: 'h2', accountId: 'full', bytes: 5, documents: 2, until: now + 1_000 }, now, always);
      await repo.holdIfFits({ id: 'h3', accountId: 'otra', bytes: 7, documents: 1, until: now + 60_000 }, now, always);
      assert.deepEqual(await repo.heldRoom('full', now, null), { bytes: 15, documents: 3 });
      assert.deepEqual(await repo.heldRoom('full', now, 'h1'), { bytes: 5, documents: 2 });
      assert.deepEqual(await repo.heldRoom('vacia', now, null), { bytes: 0, documents: 0 });
      // h2 ends at now + 1000: no longer counted from then on, unless renewed before.
      assert.deepEqual(await repo.heldRoom('full', now + 1_000, null), { bytes: 10, documents: 1 });
      await repo.renewHolds(['h2', 'desconocida'], now + 5_000);
      assert.deepEqual(await repo.heldRoom('full', now + 1_000, null), { bytes: 15, documents: 3 });
      await repo.renewHolds([], now + 9_000);
      await repo.removeHold('h1');
      await repo.removeHold('h1'); // already gone: no error
      assert.deepEqual(await repo.heldRoom('full', now, null), { bytes: 5, documents: 2 });
      // The stored figures are not touched by holds.
      assert.equal((await repo.accountStorage('full')).bytes, 400);
    } finally {
      await close();
    }
  });

  test(`${name}: a new hold clears the account's expired ones (their processes died holding them)`, async () => {
    const { repo, close } = await make();
    try {
      const now = 2_000_000;
      await repo.holdIfFits(
        { id: 'muerta', accountId: 'full', bytes: 10, documents: 1, until: now - 1 },
        now - 60_000,
        always,
      );
      await repo.holdIfFits(
        { id: 'ajena', accountId: 'otra', bytes: 10, documents: 1, until: now - 1 },
        now - 60_000,
        always,
      );
      await repo.holdIfFits(
        { id: 'viva', accountId: 'full', bytes: 3, documents: 1, until: now + 60_000 },
        now,
        always,
      );
      // Even read as of an earlier instant, the expired hold of the same account is gone; the other account's stays.
      assert.deepEqual(await repo.heldRoom('full', now - 30_000, null), { bytes: 3, documents: 1 });
      assert.deepEqual(await repo.heldRoom('otra', now - 30_000, null), { bytes: 10, documents: 1 });
    } finally {
      await close();
    }
  });

  test(`${name}: a hold is checked against the stored figures and the other holds, and refused holds nothing`, async () => {
    const { repo, close } = await make();
    try {
      const now = 3_000_000;
      await repo.holdIfFits({ id: 'a', accountId: 'full', bytes: 200, documents: 1, until: now + 60_000 }, now, always);
      const seen: unknown[] = [];
      await assert.rejects(
        repo.holdIfFits({ id: 'b', accountId: 'full', bytes: 9, documents: 1, until: now + 60_000 }, now, (s, h) => {
          seen.push([s.bytes, s.documents, s.ownBytesQuota, h.bytes, h.documents]);
          throw new Error('no cabe');
        }),
        /no cabe/,
      );
      assert.deepEqual(seen, [[400, 3, 1000, 200, 1]]);
      assert.deepEqual(await repo.heldRoom('full', now, null), { bytes: 200, documents: 1 });
    } finally {
      await close();
    }
  });
}

/** A document row of `space` in SQL both databases take. */
const documentRow = (space: string, id: string, bytes: number) =>
  `('${space}', '${id}', '${id}.txt', 'text/plain', ${bytes}, '${id}.txt', 'queued', '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z')`;

/** What a quota read sees follows every write of documents: added, resized (replaced), moved and removed. */
export function storageUsageFollowsWritesContract(
  name: string,
  make: () => Promise<{ repo: StorageQuotaRepository; exec(sql: string): Promise<void>; close(): Promise<void> }>,
): void {
  test(`${name}: an account's figures follow documents added, replaced, moved and removed`, async () => {
    const { repo, exec, close } = await make();
    const figures = async (account: string) => {
      const { bytes, documents } = await repo.accountStorage(account);
      return { bytes, documents };
    };
    try {
      await exec(
        `INSERT INTO cerebro_documents (space, id, name, media_type, bytes, path, state, created_at, updated_at, queued_at)
         VALUES ${documentRow('tres', 'n1', 70)}, ${documentRow('tres', 'n2', 30)}, ${documentRow('cuatro', 'n3', 1)}`,
      );
      assert.deepEqual(await figures('vacia'), { bytes: 100, documents: 2 });
      assert.deepEqual(await figures('otra'), { bytes: 1000, documents: 2 });
      await exec(`UPDATE cerebro_documents SET bytes = 500, state = 'ready' WHERE id = 'n1'`);
      await exec(`UPDATE cerebro_documents SET state = 'failed' WHERE id = 'n2'`);
      assert.deepEqual(await figures('vacia'), { bytes: 530, documents: 2 });
      await exec(`UPDATE cerebro_documents SET space = 'cuatro' WHERE id = 'n2'`);
      assert.deepEqual(await figures('vacia'), { bytes: 500, documents: 1 });
      assert.deepEqual(await figures('otra'), { bytes: 1030, documents: 3 });
      await exec(`DELETE FROM cerebro_documents WHERE id IN ('n1', 'd4')`);
      assert.deepEqual(await figures('vacia'), { bytes: 0, documents: 0 });
      assert.deepEqual(await figures('otra'), { bytes: 31, documents: 2 });
      assert.deepEqual(await figures('full'), { bytes: 400, documents: 3 }, 'other accounts untouched');
    } finally {
      await close();
    }
  });
}
