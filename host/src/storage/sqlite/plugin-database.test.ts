import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pluginDatabaseContract } from '../port/plugin-database.contract.js';
import { PluginDatabases } from '../plugin-databases.js';

// The contract on a real plugin file, opened the way the host opens it (WAL, busy timeout).
pluginDatabaseContract('SQLite plugin database', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-plugin-db-'));
  const files = new PluginDatabases(dataDir);
  return {
    db: files.database('contrato'),
    close: async () => {
      files.closeAll();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});

// One connection per file: what this implementation adds to the contract is order. Statements issued while a
// transaction is queued run after it, in the order issued, so a write sent without waiting (a progress figure) never
// lands after a later one (the final figure).
test('SQLite plugin database: statements issued behind a transaction run after it, in the order issued', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-plugin-db-'));
  const files = new PluginDatabases(dataDir);
  t.after(async () => {
    files.closeAll();
    await rm(dataDir, { recursive: true, force: true });
  });
  const db = files.database('orden');
  await db.execute('CREATE TABLE orden_progreso (id INTEGER PRIMARY KEY, valor REAL NOT NULL, escrito TEXT NOT NULL)');
  const written: string[] = [];
  const tx = db.transaction(async (inner) => {
    await new Promise((resolve) => setTimeout(resolve, 10));
    await inner.execute('INSERT INTO orden_progreso (id, valor, escrito) VALUES (1, 0, ?)', ['tx']);
    written.push('tx');
  });
  const progress = db.execute('UPDATE orden_progreso SET valor = 0.5, escrito = ? WHERE id = 1', ['progreso']);
  const final = db.execute('UPDATE orden_progreso SET valor = 1, escrito = ? WHERE id = 1', ['final']);
  assert.deepEqual(await progress, { changes: 1 }, 'the update ran after the insert it queued behind');
  await Promise.all([tx, final]);
  assert.deepEqual(written, ['tx']);
  assert.deepEqual(await db.queryOne('SELECT valor, escrito FROM orden_progreso'), { valor: 1, escrito: 'final' });
});

// Between transactions nothing needs the async context: the storage that tells a transaction's own statements apart
// is off, and with it Node's promise hooks, which made every `await` of the main thread cost ~2.5×. Seen in a process
// of its own (node:test turns async hooks on in the tests' process): an `await` after the transactions stays in its
// caller's async context, as without hooks. Each transaction still refuses the handle inside it (the contract).
test('SQLite plugin database: no promise hooks left on after its transactions, committed or failed', async () => {
  const script = `
    import { executionAsyncId } from 'node:async_hooks';
    import { mkdtemp, rm } from 'node:fs/promises';
    import { tmpdir } from 'node:os';
    import { join } from 'node:path';
    const { PluginDatabases } = await import(${JSON.stringify(new URL('../plugin-databases.js', import.meta.url).href)});
    const keeps = async () => {
      const before = executionAsyncId();
      await Promise.resolve();
      return executionAsyncId() === before;
    };
    const dir = await mkdtemp(join(tmpdir(), 'cerebro-plugin-db-'));
    const files = new PluginDatabases(dir);
    const db = files.database('ganchos');
    await db.execute('CREATE TABLE ganchos_filas (id INTEGER PRIMARY KEY)');
    const seen = [await keeps()];
    for (const id of [1, 2]) {
      await db.transaction(async (tx) => {
        await tx.execute('INSERT INTO ganchos_filas (id) VALUES (?)', [id]);
        seen.push(await keeps());
      });
      seen.push(await keeps());
    }
    await db.transaction(async () => { throw new Error('falla'); }).catch(() => {});
    seen.push(await keeps());
    files.closeAll();
    await rm(dir, { recursive: true, force: true });
    console.log(JSON.stringify(seen));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  // Before, after each transaction and after the failed one: hooks off. Inside one they are on where
  // AsyncLocalStorage is built on them (Node 20; Node 24's async context frames need none), so that is not asserted.
  const [before, , afterFirst, , afterSecond, afterFailed] = JSON.parse(run.stdout) as boolean[];
  assert.deepEqual([before, afterFirst, afterSecond, afterFailed], [true, true, true, true]);
});
