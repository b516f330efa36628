// Several processes sharing the plugin's database: a scheduled source's turn is claimed with one atomic statement
// (exactly one process launches it), and a starting process ends only the runs of processes that are gone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openTestDatabase } from '@cerebro/sdk/testing';
import { fuentesMigrations } from '../migrations.js';
import { ManualClock } from '../test-support.js';
import { RunStore } from './run-store.js';
import { SourceStore } from './source-store.js';

test('two processes see a source due: one claims its turn, the other does not launch it', async (t) => {
  // Two handles on one file, each with its own connection, as two processes open it.
  const first = await openTestDatabase(t, { pluginId: 'fuentes', migrations: fuentesMigrations });
  const second = await openTestDatabase(t, { pluginId: 'fuentes', migrations: fuentesMigrations, file: first.file });
  const clock = new ManualClock();
  const mine = new SourceStore(first.db, clock);
  const theirs = new SourceStore(second.db, clock);
  const source = await mine.create({
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
  const [seenByMe] = await mine.due(clock.now());
  const [seenByThem] = await theirs.due(clock.now());
  assert.ok(seenByMe && seenByThem, 'both see it due');
  assert.equal(await mine.claimDue(seenByMe, clock.now()), true);
  assert.equal(await theirs.claimDue(seenByThem, clock.now()), false, 'its turn is taken');
  assert.deepEqual(await theirs.due(clock.now()), [], 'not due any more for anyone');
  assert.equal((await theirs.get('demo', source.id))?.nextRunAt, clock.now() + 3_600_000);
});

test('a starting process ends only the runs of processes that are gone, never a live one’s', async (t) => {
  const { db } = await openTestDatabase(t, { pluginId: 'fuentes', migrations: fuentesMigrations });
  const runs = new RunStore(db, new ManualClock());
  for (const id of ['mia', 'viva', 'muerta', 'antigua']) await runs.create('demo', id, 'precios', 'manual'); // mia: this process
  const own = (owner: string | null, id: string) =>
    db.execute('UPDATE fuentes_runs SET owner = ? WHERE id = ?', [owner, id]);
  await own(`${process.ppid}-otro`, 'viva'); // another live process (the test runner's parent)
  await own('2147483646-muerta', 'muerta'); // a pid no process has
  await own(null, 'antigua'); // written before runs had owners
  assert.deepEqual((await runs.leftByGoneProcesses()).map((r) => r.id).sort(), ['antigua', 'muerta']);
});
