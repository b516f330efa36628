import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StorageQuotaRepository } from './storage-quota-repository.js';

/**
 * The behaviour every storage quota backend must show. `make` gives a store where account `full` has two spaces
 * holding documents of 100, 250 (one space) and 50 bytes (the other), own quotas of 1000 bytes and no document
 * quota; account `vacia` has no documents and no own quotas; account `otra` holds a 999-byte document.
 */
export function storageQuotaRepositoryContract(
  name: string,
  make: () => Promise<{ repo: StorageQuotaRepository; close(): Promise<void> }>,
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
}
