// Several processes sharing the plugin's database: a starting process ends only the runs of processes that are gone
// (the schedule's turns and the runs themselves are HostServices.Jobs jobs, taken once: host/src/plugins/jobs).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openTestDatabase } from '@cerebro/sdk/testing';
import { fuentesMigrations } from '../migrations.js';
import { ManualClock } from '../test-support.js';
import { RunStore } from './run-store.js';

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
