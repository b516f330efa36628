import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { processStartStamp } from '../process-temp-dir.js';
import { RETIRED_DIR, backupRunning, holdBackupMarker } from './backup-lock.js';
import { FolderOriginalsStore, relativeOriginal } from './originals-store.js';

async function dataDir(t: { after(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-originals-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('originals are stored under relative paths; only paths inside the data folder count as its own', async (t) => {
  const dir = await dataDir(t);
  const store = new FolderOriginalsStore(dir);
  const { stored, absolute } = await store.newFile('espacio');
  assert.match(stored, /^documentos\/[0-9a-f]{24}\/[0-9a-f-]{36}$/);
  assert.equal(absolute, join(dir, stored));
  assert.equal(relativeOriginal(dir, absolute), stored, 'a legacy absolute path inside the folder');
  assert.equal(relativeOriginal(dir, '/otra/carpeta/x'), null);
  assert.equal(relativeOriginal(dir, '../fuera'), null);
  assert.equal(store.absolute('/otra/carpeta/x'), '/otra/carpeta/x');
});

test('a retired original waits while a backup runs and goes at the first purge after it; a dead backup holds nothing', async (t) => {
  const dir = await dataDir(t);
  const store = new FolderOriginalsStore(dir);
  const { stored, absolute } = await store.newFile('espacio');
  await writeFile(absolute, 'versión 1');

  const release = holdBackupMarker(dir);
  assert.equal(backupRunning(dir), true);
  await store.retire(stored);
  assert.equal(existsSync(absolute), false, 'out of the live folder at once');
  assert.equal(await readFile(join(dir, RETIRED_DIR, stored), 'utf8'), 'versión 1', 'kept for the running backup');
  release();
  assert.equal(await store.purgeRetired(), 1);
  assert.equal(existsSync(join(dir, RETIRED_DIR, stored)), false);

  // A backup killed with SIGKILL leaves its marker behind: a dead process's marker holds nothing and is removed.
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
  await new Promise((r) => child.once('spawn', r));
  const stamp = processStartStamp(child.pid!) ?? '0';
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  const marker = join(dir, RETIRED_DIR, `.respaldo-${child.pid}-${stamp}`);
  await writeFile(marker, '');
  const second = await store.newFile('espacio');
  await writeFile(second.absolute, 'versión 2');
  await store.retire(second.stored);
  assert.equal(existsSync(join(dir, RETIRED_DIR, second.stored)), false);
  assert.equal(existsSync(marker), false);
  await store.retire('documentos/no/existe'); // already gone: nothing to do
});

test('halves of originals left by a killed writer are swept once old; a fresh one (a write in progress) stays', async (t) => {
  const dir = await dataDir(t);
  const store = new FolderOriginalsStore(dir);
  const kept = await store.putBytes('espacio', new TextEncoder().encode('entero'));
  const { absolute } = await store.newFile('espacio');
  const name = absolute.slice(absolute.lastIndexOf('/') + 1);
  const old = join(absolute, '..', `.${name}.parcial`);
  const fresh = join(absolute, '..', `.${name}-2.parcial`);
  await writeFile(old, 'a medias');
  await writeFile(fresh, 'escribiéndose');
  const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
  await utimes(old, twoHoursAgo, twoHoursAgo);

  assert.equal(await store.sweepUnfinished(3_600_000), 1);
  assert.equal(existsSync(old), false, 'the abandoned half is gone');
  assert.equal(existsSync(fresh), true, 'a write that may still be running is left alone');
  assert.equal(await readFile(store.absolute(kept), 'utf8'), 'entero', 'whole originals are never touched');
  assert.equal(await new FolderOriginalsStore(join(dir, 'sin-crear')).sweepUnfinished(0), 0, 'no folder yet: nothing');
});
