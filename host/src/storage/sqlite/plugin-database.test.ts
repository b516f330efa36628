import assert from 'node:assert/strict';
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
