import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { threadPool } from './thread-pool.js';

function workerFile(): { href: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'cerebro-thread-pool-'));
  const file = join(dir, 'double-entry.cjs');
  writeFileSync(file, 'module.exports = (n) => n * 2;\n');
  return { href: pathToFileURL(file).href, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

test('the pool is made at its first use, once, and runs tasks on a thread', async () => {
  const worker = workerFile();
  const pool = threadPool({ filename: worker.href, minThreads: 0, maxThreads: 1 });
  try {
    const first = pool.get();
    assert.equal(pool.get(), first, 'the same pool for every caller, even while it is being made');
    const piscina = await first;
    assert.equal(await piscina.run(21), 42);
  } finally {
    await pool.destroy();
    worker.remove();
  }
});

test('a destroyed pool refuses later tasks; destroying one never used makes nothing', async () => {
  const worker = workerFile();
  try {
    const used = threadPool({ filename: worker.href, minThreads: 0, maxThreads: 1 });
    await (await used.get()).run(1);
    await used.destroy();
    await assert.rejects(used.get(), /destroyed/);

    const unused = threadPool({ filename: worker.href, minThreads: 0, maxThreads: 1 });
    await unused.destroy();
    await assert.rejects(unused.get(), /destroyed/);
  } finally {
    worker.remove();
  }
});

test('a pool is refused its ES module worker itself: only a CommonJS entry is safe to terminate while it starts', () => {
  assert.throws(
    () => threadPool({ filename: 'file:///opt/cerebro/worker.js', minThreads: 0, maxThreads: 1 }),
    /CommonJS entry \(\*-entry\.cjs\)/,
  );
});
