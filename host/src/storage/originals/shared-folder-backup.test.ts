// `cerebro admin respaldo` with CEREBRO_ARCHIVOS=fs:<dir>: the originals the database names are taken from the shared
// folder (not the data folder), and the backup restores like any other.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../database.js';
import { backupDataFolder } from '../data-backup.js';
import { applyMigrations } from '../migrator.js';
import { HOST_MIGRATIONS } from '../migrations/index.js';
import { restoreBackup } from '../restore.js';
import { FolderOriginalsStore } from './originals-store.js';

test('a backup with originals in a shared folder copies them from there; one retired and purged before it is named missing', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'cerebro-compartida-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const dataDir = join(root, 'datos');
  const shared = join(root, 'compartida');
  await mkdir(shared);
  const store = new FolderOriginalsStore(shared, 'carpeta');
  const stored = await store.putBytes('s', new TextEncoder().encode('hola'));
  const db = openDatabase(join(dataDir, 'cerebro.db'));
  applyMigrations(db, { owner: 'host', migrations: HOST_MIGRATIONS });
  db.prepare(`INSERT INTO cerebro_documents (space, id, name, media_type, bytes, sha256, path, state, created_at, updated_at, queued_at)
    VALUES ('s', 'd', 'd.txt', 'text/plain', 4, ?, ?, 'ready', '', '', '')`).run(
    'b221d9dbb083a7f33428d7c2a3c3198ae925614d70210e28716ccaa7cd4ddb79',
    stored,
  );
  db.close();

  const backup = join(root, 'respaldo');
  const made = await backupDataFolder(dataDir, backup, undefined, shared);
  assert.deepEqual([made.originales.archivos, made.ausentes], [1, []]);
  assert.equal(await readFile(join(backup, stored), 'utf8'), 'hola');
  await restoreBackup(backup, join(root, 'copia'), 'npx cerebro');
  assert.equal(await readFile(join(root, 'copia', stored), 'utf8'), 'hola', 'restored into the new data folder');

  // The same database, its original retired from the shared folder while no backup ran: gone, so named missing.
  await store.retire(stored);
  const later = await backupDataFolder(dataDir, join(root, 'respaldo-2'), undefined, shared);
  assert.deepEqual(later.ausentes, [stored]);
});
