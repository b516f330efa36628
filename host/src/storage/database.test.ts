import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { openDatabase } from './database.js';

test('the write-ahead log gives back the space of a burst once it starts over after a checkpoint', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cerebro-wal-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'burst.db');
  const db = openDatabase(file);
  t.after(() => db.close());
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
  db.exec('CREATE TABLE t (v BLOB)');
  // A burst of 12 MB in one transaction: the log must hold it all until the commit.
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < 12 * 16; i++) insert.run(Buffer.alloc(64 * 1024, i));
  })();
  assert.ok(statSync(`${file}-wal`).size > 8 * 1024 * 1024, 'the burst went through the log');
  db.pragma('wal_checkpoint(PASSIVE)');
  db.prepare('INSERT INTO t (v) VALUES (?)').run(Buffer.alloc(10));
  assert.ok(statSync(`${file}-wal`).size <= 4 * 1024 * 1024, `log of ${statSync(`${file}-wal`).size} bytes`);
});

test('opening a new file another connection holds in rollback mode waits for it, then switches it to WAL', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cerebro-wal-switch-'));
  const file = join(dir, 'cerebro.db');
  // Another connection (a thread standing for another process) has the new file, still in rollback mode, to itself
  // for 300 ms: the switch to WAL cannot happen until it lets go.
  const holder = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const Database = require(workerData.driver);
     const db = new Database(workerData.file);
     db.exec('CREATE TABLE t (x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1);');
     parentPort.postMessage('held');
     setTimeout(() => { db.exec('COMMIT'); db.close(); parentPort.postMessage('released'); }, 300);`,
    { eval: true, workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3') } },
  );
  try {
    await new Promise((resolve) => holder.once('message', resolve));
    const db = openDatabase(file);
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal((db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, 1);
    db.close();
  } finally {
    await holder.terminate();
    rmSync(dir, { recursive: true, force: true });
  }
});
