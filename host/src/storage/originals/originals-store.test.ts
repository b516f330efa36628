import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { processStartStamp } from '../process-temp-dir.js';
import { RETIRED_DIR, backupRunning, holdBackupMarker } from './backup-lock.js';
import type { OriginalNames } from '../port/originals-store.js';
import { NAMES_PER_READ } from './folder-sweep.js';
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

  assert.deepEqual(await store.sweepUnfinished(3_600_000, namesOf([])), { halves: 1, unnamed: 0 });
  assert.equal(existsSync(old), false, 'the abandoned half is gone');
  assert.equal(existsSync(fresh), true, 'a write that may still be running is left alone');
  assert.equal(await readFile(store.absolute(kept), 'utf8'), 'entero', 'a young whole original is never touched');
  assert.deepEqual(
    await new FolderOriginalsStore(join(dir, 'sin-crear')).sweepUnfinished(0, namesOf([])),
    { halves: 0, unnamed: 0 },
    'no folder yet: nothing',
  );
});

/** Names `named` as the database would, and counts the names each read was asked for. */
function namesOf(named: Iterable<string>): OriginalNames & { asked: number[] } {
  const set = new Set(named);
  const asked: number[] = [];
  return {
    asked,
    namedOriginals: async (stored) => {
      asked.push(stored.length);
      return stored.filter((s) => set.has(s));
    },
  };
}

const TWO_HOURS_AGO = new Date(Date.now() - 2 * 3_600_000);

/** Writes an original of `space` whose last change was two hours ago (or now, `young`); its stored name. */
async function original(store: FolderOriginalsStore, space: string, young = false): Promise<string> {
  const stored = await store.putBytes(space, new TextEncoder().encode(`original de ${space}`));
  if (!young) await utimes(store.absolute(stored), TWO_HOURS_AGO, TWO_HOURS_AGO);
  return stored;
}

test('whole originals no document names are swept once old; named, young, retired and foreign files stay', async (t) => {
  const dir = await dataDir(t);
  const store = new FolderOriginalsStore(dir);
  const named = await original(store, 'espacio');
  const young = await original(store, 'espacio', true);
  const orphan = await original(store, 'espacio');
  // A half left by a killed writer beside them goes as before.
  const half = join(store.absolute(orphan), '..', '.mitad.parcial');
  await writeFile(half, 'a medias');
  await utimes(half, TWO_HOURS_AGO, TWO_HOURS_AGO);
  // A retired version waiting for a backup's end is purgeRetired's, whatever its age or name.
  const retired = await original(store, 'espacio');
  const release = holdBackupMarker(dir);
  await store.retire(retired);
  release();
  await utimes(join(dir, RETIRED_DIR, retired), TWO_HOURS_AGO, TWO_HOURS_AGO);
  // Files of shapes the store never writes (put there by hand) are not its originals.
  const byHand = join(store.absolute(named), '..', 'notas.txt');
  const otherFolder = join(dir, 'documentos', 'a-mano', '00000000-0000-4000-8000-000000000000');
  await mkdir(dirname(otherFolder));
  for (const file of [byHand, otherFolder]) {
    await writeFile(file, 'a mano');
    await utimes(file, TWO_HOURS_AGO, TWO_HOURS_AGO);
  }

  assert.deepEqual(await store.sweepUnfinished(3_600_000, namesOf([named])), { halves: 1, unnamed: 1 });
  assert.equal(existsSync(store.absolute(orphan)), false, 'old and unnamed: its writer died before recording it');
  assert.equal(existsSync(half), false);
  assert.equal(await readFile(store.absolute(named), 'utf8'), 'original de espacio', 'a document names it');
  assert.equal(existsSync(store.absolute(young)), true, 'its writer may be about to record it');
  assert.equal(existsSync(join(dir, RETIRED_DIR, retired)), true, 'retired files are purgeRetired’s');
  assert.equal(existsSync(byHand) && existsSync(otherFolder), true);
  assert.deepEqual(await store.sweepUnfinished(3_600_000, namesOf([named])), { halves: 0, unnamed: 0 });
});

test('a folder holding 1,201 old originals is checked in reads of at most 500 names', async (t) => {
  const dir = await dataDir(t);
  const store = new FolderOriginalsStore(dir);
  const all = await Promise.all(Array.from({ length: 1201 }, () => original(store, 'grande')));
  const names = namesOf(all.slice(1));
  assert.deepEqual(await store.sweepUnfinished(3_600_000, names), { halves: 0, unnamed: 1 });
  assert.deepEqual(
    [...names.asked].sort((a, b) => a - b),
    [201, NAMES_PER_READ, NAMES_PER_READ],
  );
  assert.equal(existsSync(store.absolute(all[0]!)), false);
  assert.equal(existsSync(store.absolute(all[1200]!)), true);
});

test('unnamed originals stay while a backup runs, and where the database names none of their folder', async (t) => {
  const dir = await dataDir(t);
  const store = new FolderOriginalsStore(dir);
  const named = await original(store, 'uno');
  const orphan = await original(store, 'uno');
  // Another space's folder none of whose originals the database names: rather a database that is not this folder's
  // (a mistyped address, a lost cerebro.db) than a crash, so nothing there is deleted.
  const foreign = [await original(store, 'dos'), await original(store, 'dos')];

  const release = holdBackupMarker(dir);
  assert.deepEqual(await store.sweepUnfinished(3_600_000, namesOf([named])), { halves: 0, unnamed: 0 });
  assert.equal(existsSync(store.absolute(orphan)), true, 'the running backup’s snapshot may still name it');
  release();
  assert.deepEqual(await store.sweepUnfinished(3_600_000, namesOf([named])), { halves: 0, unnamed: 1 });
  assert.equal(existsSync(store.absolute(orphan)), false);
  for (const stored of foreign) assert.equal(existsSync(store.absolute(stored)), true);
});
