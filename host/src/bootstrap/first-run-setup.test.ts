import 'reflect-metadata';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { loadHostConfig } from '../config/host-config.js';
import { HostRootTokens } from '../kernel/root-tokens.js';
import { resolveToken } from '../kernel/resolve.js';
import { createRootLogger } from '../logging/logger.js';
import { buildHostContainer } from '../main/host-container.js';
import { openMigratedTestDatabase } from '../storage/sqlite/access-fixture.js';
import { inWriteTransaction } from '../storage/sqlite/write-transaction.js';
import { FIRST_RUN_FILE, FIRST_RUN_POINTS, type FirstRunPoint } from './first-run.js';
import { firstRunTestPause, setUpFirstRun, unsavedFirstRunFile } from './first-run-setup.js';

/** A SQLite host as `cerebro serve` sees it: its admin, data folder and first-start unit. */
async function sqliteHost(t: { after(fn: () => unknown): void }) {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-first-run-setup-'));
  const sqlite = openMigratedTestDatabase();
  t.after(async () => {
    await sqlite.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const config = loadHostConfig({ CEREBRO_DATA_DIR: dataDir });
  const container = buildHostContainer(config, createRootLogger('silent'), sqlite.db, { now: () => Date.now() });
  const admin = resolveToken(container, HostRootTokens.Admin);
  return {
    dataDir,
    admin,
    host: {
      admin,
      config,
      url: 'http://127.0.0.1:8080',
      firstStart: <T>(_name: string, step: () => Promise<T | null>) => inWriteTransaction(sqlite.db, step),
    },
  };
}

test('a failure after any point before the commit leaves an empty database; the next setup makes all of it', async (t) => {
  const { host, admin, dataDir } = await sqliteHost(t);
  for (const point of FIRST_RUN_POINTS.filter((p) => p !== 'confirmado')) {
    const failAt = (at: FirstRunPoint) =>
      at === point ? Promise.reject(new Error(`caída tras ${point}`)) : Promise.resolve();
    await assert.rejects(setUpFirstRun(host, [], failAt), new RegExp(`caída tras ${point}`));
    assert.equal(await admin.isEmpty(), true, `nothing kept after ${point}`);
  }
  const setup = await setUpFirstRun(host, []);
  assert.ok(setup);
  assert.equal(setup.file, join(dataDir, FIRST_RUN_FILE));
  const text = await readFile(setup.file, 'utf8');
  assert.ok(text.includes(setup.result.key) && text.includes(setup.result.operatorCredential), text);
  assert.equal(await admin.operatorCredentialIssued(setup.result.operatorCredential), true);
  assert.equal((await admin.listOwners()).total, 1);
  assert.equal((await admin.listSpaces()).espacios[0]?.propietario, setup.result.ownerId);
  assert.equal((await admin.listKeys(setup.result.ownerId)).total, 1);
  assert.equal(await unsavedFirstRunFile(admin, dataDir), null, 'its own file is no stale one');
  assert.equal(await setUpFirstRun(host, []), null, 'set up once');
});

test('a credentials file naming an operator credential this database never issued is reported, and left alone', async (t) => {
  const { host, admin, dataDir } = await sqliteHost(t);
  assert.equal(await unsavedFirstRunFile(admin, dataDir), null, 'no file');
  const setup = await setUpFirstRun(host, []);
  assert.ok(setup);
  const stale = `Credencial de operador: cra_${'0'.repeat(16)}.${'x'.repeat(43)}\n`;
  await writeFile(setup.file, stale);
  assert.equal(await unsavedFirstRunFile(admin, dataDir), setup.file);
  assert.equal(await readFile(setup.file, 'utf8'), stale);
  // Right id, wrong secret: not issued either. A key is no operator credential.
  const id = setup.result.operatorCredential.slice(4, 20);
  assert.equal(await admin.operatorCredentialIssued(`cra_${id}.${'y'.repeat(43)}`), false);
  assert.equal(await admin.operatorCredentialIssued(setup.result.key), false);
  assert.equal(await admin.operatorCredentialIssued('basura'), false);
  await rm(setup.file);
  assert.equal(existsSync(setup.file), false);
  assert.equal(await unsavedFirstRunFile(admin, dataDir), null);
});

test('the crash tests pause only at a known point named by CEREBRO_TEST_FIRST_RUN_PAUSE', async () => {
  const stderr = new PassThrough();
  assert.equal(firstRunTestPause({}, stderr), undefined);
  assert.equal(firstRunTestPause({ CEREBRO_TEST_FIRST_RUN_PAUSE: 'ninguno' }, stderr), undefined);
  const pause = firstRunTestPause({ CEREBRO_TEST_FIRST_RUN_PAUSE: 'clave' }, stderr)!;
  await pause('operador');
  let said = '';
  stderr.on('data', (d) => (said += d));
  const paused = await Promise.race([
    pause('clave').then(() => 'siguió'),
    new Promise((r) => setTimeout(r, 20, 'parado')),
  ]);
  assert.equal(paused, 'parado');
  assert.equal(said, 'pausa del primer arranque: clave\n');
});
