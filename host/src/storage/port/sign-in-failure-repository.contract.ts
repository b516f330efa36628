import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SignInFailureRepository } from './sign-in-failure-repository.js';

/** The behaviour every sign-in-failure backend must show (run per backend by its own test file). */
export function signInFailureRepositoryContract(
  name: string,
  make: () => Promise<{ repo: SignInFailureRepository; close(): Promise<void> }>,
): void {
  test(`${name}: failures are counted per subject, after a time, oldest first`, async () => {
    const { repo, close } = await make();
    try {
      await repo.add(['e:ana@x.es', 'i:1.1.1.1'], 300);
      await repo.add(['e:ana@x.es', 'i:2.2.2.2'], 100);
      await repo.add(['e:ana@x.es', 'i:1.1.1.1'], 200);
      assert.deepEqual(await repo.since('e:ana@x.es', 0), [100, 200, 300]);
      assert.deepEqual(await repo.since('e:ana@x.es', 100), [200, 300], '`since` is exclusive');
      assert.deepEqual(await repo.since('i:1.1.1.1', 0), [200, 300]);
      assert.deepEqual(await repo.since('e:otra@x.es', 0), []);
    } finally {
      await close();
    }
  });

  test(`${name}: clearing forgets one subject; forgetting drops every failure up to a time`, async () => {
    const { repo, close } = await make();
    try {
      await repo.add(['e:ana@x.es', 'i:1.1.1.1'], 100);
      await repo.add(['e:ana@x.es', 'i:1.1.1.1'], 200);
      await repo.clear('e:ana@x.es');
      assert.deepEqual(await repo.since('e:ana@x.es', 0), []);
      assert.deepEqual(await repo.since('i:1.1.1.1', 0), [100, 200], 'the address keeps its failures');
      await repo.forgetBefore(100);
      assert.deepEqual(await repo.since('i:1.1.1.1', 0), [200], '`forgetBefore` is inclusive');
    } finally {
      await close();
    }
  });
}
