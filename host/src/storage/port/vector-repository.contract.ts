// The behaviour every VectorRepository gives (issue #24): run against SQLite today, PostgreSQL next (issue #25).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { VectorRepository } from './vector-repository.js';

const v = (...xs: number[]) => new Float32Array(xs);

export function vectorRepositoryContract(
  name: string,
  /** A repository of 3 dimensions. */
  make: () => Promise<{ repo: VectorRepository; close(): Promise<void> }>,
): void {
  test(`${name}: nearest vectors by cosine distance, per space; read back and deleted by passage id`, async () => {
    const { repo, close } = await make();
    try {
      assert.equal(repo.dimensions, 3);
      await repo.put('a', [1, 2, 3], [v(1, 0, 0), v(0, 1, 0), v(0.9, 0.1, 0)]);
      await repo.put('b', [4], [v(1, 0, 0)]);
      const near = await repo.nearest('a', v(1, 0, 0), 2);
      assert.deepEqual(
        near.map((n) => n.id),
        [1, 3],
      );
      assert.ok(near[0]!.distance < 1e-6 && near[1]!.distance > near[0]!.distance);
      assert.deepEqual(
        (await repo.nearest('b', v(0, 1, 0), 5)).map((n) => n.id),
        [4],
        'only the space’s own vectors',
      );
      assert.deepEqual(await repo.nearest('a', v(1, 0, 0), 0), []);
      const back = await repo.vectors('a', [2, 4, 9]);
      assert.deepEqual([...back.keys()], [2], 'another space’s vector or none: not returned');
      assert.deepEqual([...back.get(2)!], [0, 1, 0]);
      await repo.delete([1, 4]);
      assert.deepEqual(
        (await repo.nearest('a', v(1, 0, 0), 5)).map((n) => n.id),
        [3, 2],
      );
      assert.deepEqual(await repo.nearest('b', v(1, 0, 0), 5), []);
    } finally {
      await close();
    }
  });

  test(`${name}: a vector of another dimension is refused and nothing of its batch is stored`, async () => {
    const { repo, close } = await make();
    try {
      await assert.rejects(repo.put('a', [1, 2], [v(1, 0, 0), v(1, 0)]), /dimensions/);
      assert.deepEqual(await repo.nearest('a', v(1, 0, 0), 5), []);
    } finally {
      await close();
    }
  });
}
