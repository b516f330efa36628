// Several processes sharing the plugin's database: a scheduled source's turn is claimed with one atomic statement
// (exactly one process launches it), and a starting process ends only the runs of processes that are gone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import type { PluginStorage } from '@cerebro/sdk';
import { fuentesMigrations } from '../migrations.js';
import { ManualClock } from '../test-support.js';
import { RunStore } from './run-store.js';
import { SourceStore } from './source-store.js';

/** One connection to the plugin's database file, as each process opens its own. */
function connection(file: string): PluginStorage & { close(): void } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  return Object.assign(db, { tablePrefix: 'fuentes_' }) as unknown as PluginStorage & { close(): void };
}

test('two processes see a source due: one claims its turn, the other does not launch it', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'fuentes-claim-'));
  const file = join(dir, 'fuentes.db');
  const first = connection(file);
  const second = connection(file);
  t.after(() => {
    first.close();
    second.close();
    rmSync(dir, { recursive: true, force: true });
  });
  for (const m of fuentesMigrations) first.exec(m.sql);
  const clock = new ManualClock();
  const mine = new SourceStore(first, clock);
  const theirs = new SourceStore(second, clock);
  const source = mine.create({
    spaceId: 'demo',
    id: 'precios',
    nombre: 'Precios',
    tipo: 'url',
    settings: {
      url: 'https://tienda.example/precios',
      urls: [],
      profundidad: 0,
      max_paginas: 1,
      prefijo: '',
      mismo_origen: true,
      pausa_ms: 0,
    },
    cadaHoras: 1,
  });
  clock.advance(3_600_000 + 1);
  const [seenByMe] = mine.due(clock.now());
  const [seenByThem] = theirs.due(clock.now());
  assert.ok(seenByMe && seenByThem, 'both see it due');
  assert.equal(mine.claimDue(seenByMe, clock.now()), true);
  assert.equal(theirs.claimDue(seenByThem, clock.now()), false, 'its turn is taken');
  assert.deepEqual(theirs.due(clock.now()), [], 'not due any more for anyone');
  assert.equal(theirs.get('demo', source.id)?.nextRunAt, clock.now() + 3_600_000);
});

test('a starting process ends only the runs of processes that are gone, never a live one’s', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'fuentes-runs-'));
  const storage = connection(join(dir, 'fuentes.db'));
  t.after(() => {
    storage.close();
    rmSync(dir, { recursive: true, force: true });
  });
  for (const m of fuentesMigrations) storage.exec(m.sql);
  const runs = new RunStore(storage, new ManualClock());
  runs.create('demo', 'mia', 'precios', 'manual'); // this process: alive
  runs.create('demo', 'viva', 'precios', 'manual');
  runs.create('demo', 'muerta', 'precios', 'manual');
  runs.create('demo', 'antigua', 'precios', 'manual');
  const own = storage.prepare('UPDATE fuentes_runs SET owner = ? WHERE id = ?');
  own.run(`${process.ppid}-otro`, 'viva'); // another live process (the test runner's parent)
  own.run('2147483646-muerta', 'muerta'); // a pid no process has
  own.run(null, 'antigua'); // written before runs had owners
  assert.deepEqual(
    runs
      .leftByGoneProcesses()
      .map((r) => r.id)
      .sort(),
    ['antigua', 'muerta'],
  );
});
