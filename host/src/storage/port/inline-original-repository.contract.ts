import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InlineOriginalRepository } from './inline-original-repository.js';

/** The behaviour every backend of the originals kept in the database must show. */
export function inlineOriginalRepositoryContract(
  name: string,
  make: () => Promise<{
    repo: InlineOriginalRepository;
    /** Records a document whose original is `stored` (a row of `cerebro_documents`). */
    nameInDocument(stored: string): Promise<void>;
    close(): Promise<void>;
  }>,
): void {
  test(`${name}: an original is read back byte for byte, and gone once removed`, async () => {
    const { repo, close } = await make();
    try {
      // Every byte value, a NUL among them, and a view into a larger buffer (as a small Buffer from a string is, in
      // Node's shared pool): only the view's own bytes are stored.
      const bytes = Uint8Array.from({ length: 300 }, (_, i) => i % 256);
      const larger = new Uint8Array(310).fill(7);
      larger.set(bytes, 5);
      const view = larger.subarray(5, 305);
      await repo.put('bd:uno', bytes, 1);
      await repo.put('bd:dos', view, 1);
      assert.deepEqual([...((await repo.get('bd:uno')) ?? [])], [...bytes]);
      assert.deepEqual([...((await repo.get('bd:dos')) ?? [])], [...bytes]);
      assert.equal(await repo.get('bd:ninguno'), null);
      await repo.remove('bd:uno');
      assert.equal(await repo.get('bd:uno'), null);
      await repo.remove('bd:uno'); // already gone: no error
      assert.notEqual(await repo.get('bd:dos'), null, 'the other one stays');
      const pooled = Buffer.from('<p>página</p>', 'utf8');
      await repo.put('bd:tres', pooled, 1);
      assert.equal((await repo.get('bd:tres'))?.toString('utf8'), '<p>página</p>');
    } finally {
      await close();
    }
  });

  test(`${name}: a stored name is written once (a second write of it is refused, the first kept)`, async () => {
    const { repo, close } = await make();
    try {
      await repo.put('bd:x', Buffer.from('primero'), 1);
      await assert.rejects(repo.put('bd:x', Buffer.from('segundo'), 1));
      assert.equal((await repo.get('bd:x'))?.toString(), 'primero');
    } finally {
      await close();
    }
  });

  test(`${name}: a start removes old originals no document names, and keeps young or named ones`, async () => {
    const { repo, nameInDocument, close } = await make();
    try {
      const bytes = Buffer.from('<p>x</p>');
      await repo.put('bd:viejo-sin-documento', bytes, 1_000);
      await repo.put('bd:viejo-con-documento', bytes, 1_000);
      await repo.put('bd:reciente', bytes, 5_000);
      await nameInDocument('bd:viejo-con-documento');
      assert.equal(await repo.removeUnnamed(2_000), 1);
      assert.equal(await repo.get('bd:viejo-sin-documento'), null);
      assert.notEqual(await repo.get('bd:viejo-con-documento'), null, 'a document names it');
      assert.notEqual(await repo.get('bd:reciente'), null, 'its writer may still be about to record it');
      assert.equal(await repo.removeUnnamed(2_000), 0);
    } finally {
      await close();
    }
  });
}
