import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { ScopedAsyncStorage } from './scoped-async-storage.js';

test('each run sees its own store through its awaits, overlapping runs included; none once all have settled', async () => {
  const storage = new ScopedAsyncStorage<string>();
  const seen: (string | undefined)[] = [];
  const look = async (ms: number) => {
    await sleep(ms);
    seen.push(storage.getStore());
  };
  const slow = storage.run('a', async () => {
    await look(20);
    await look(0);
    return 'hecho a';
  });
  const quick = storage.run('b', () => look(5));
  // The quicker run settling does not take the slower one's store away.
  await quick;
  assert.equal(await slow, 'hecho a');
  assert.deepEqual(seen, ['b', 'a', 'a']);
  assert.equal(storage.getStore(), undefined);
  await assert.rejects(
    storage.run('c', async () => {
      assert.equal(storage.getStore(), 'c', 'switched on again by the next run');
      throw new Error('falla');
    }),
    /falla/,
  );
  assert.equal(storage.getStore(), undefined);
});

// Seen in a process of its own (node:test turns async hooks on in the tests' process): where AsyncLocalStorage is
// built on promise hooks (Node 20), they are on while a run is in progress and off once every run has settled, so an
// `await` outside runs keeps its caller's async id, as with no storage at all.
test('no promise hooks are left on once every run has settled', () => {
  const script = `
    import { executionAsyncId } from 'node:async_hooks';
    const { ScopedAsyncStorage } = await import(${JSON.stringify(new URL('./scoped-async-storage.js', import.meta.url).href)});
    const keeps = async () => {
      const before = executionAsyncId();
      await Promise.resolve();
      return executionAsyncId() === before;
    };
    const storage = new ScopedAsyncStorage();
    const seen = [await keeps()];
    await Promise.all([storage.run(1, () => keeps()), storage.run(2, () => new Promise((r) => setTimeout(r, 10)))]);
    seen.push(await keeps());
    await storage.run(3, async () => { throw new Error('falla'); }).catch(() => {});
    seen.push(await keeps());
    console.log(JSON.stringify(seen));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), [true, true, true]);
});
