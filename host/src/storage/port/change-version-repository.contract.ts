import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChangeVersionRepository } from './change-version-repository.js';

/** The behaviour every change-version backend must show (run per backend by its own test file). */
export function changeVersionRepositoryContract(
  name: string,
  make: () => Promise<{ repo: ChangeVersionRepository; close(): Promise<void> }>,
): void {
  test(`${name}: a version that never changed reads 0; each bump moves only its own name by one`, async () => {
    const { repo, close } = await make();
    try {
      assert.equal(await repo.read('directorio'), 0);
      await repo.bump('directorio');
      await repo.bump('directorio');
      await repo.bump('contenido:a');
      assert.equal(await repo.read('directorio'), 2);
      assert.equal(await repo.read('contenido:a'), 1);
      assert.equal(await repo.read('contenido:b'), 0);
      // A backend that answers at once (optional) answers the same.
      if (repo.readNow) assert.deepEqual([repo.readNow('directorio'), repo.readNow('contenido:b')], [2, 0]);
    } finally {
      await close();
    }
  });

  test(`${name}: bumps started together all count`, async () => {
    const { repo, close } = await make();
    try {
      await Promise.all(Array.from({ length: 20 }, () => repo.bump('directorio')));
      assert.equal(await repo.read('directorio'), 20);
    } finally {
      await close();
    }
  });
}
