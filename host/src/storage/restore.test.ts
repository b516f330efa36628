import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from './database.js';
import { backupDataFolder } from './data-backup.js';
import { fileSha256 } from './file-sha256.js';
import { applyMigrations } from './migrator.js';
import { HOST_MIGRATIONS } from './migrations/index.js';
import { FolderOriginalsStore } from './originals/originals-store.js';
import { restoreBackup } from './restore.js';

/** A data folder with one document whose row still has the absolute path an older version wrote. */
async function legacyFolder(root: string): Promise<{ dir: string; rel: string }> {
  const dir = join(root, 'datos');
  const db = openDatabase(join(dir, 'cerebro.db'));
  applyMigrations(db, { owner: 'host', migrations: HOST_MIGRATIONS.filter((m) => m.id < '0009') });
  const { stored, absolute } = await new FolderOriginalsStore(dir).newFile('s');
  await writeFile(absolute, 'hola');
  db.prepare(`INSERT INTO cerebro_documents (space, id, name, media_type, bytes, sha256, path, state, created_at, updated_at, queued_at)
    VALUES ('s', 'd', 'd.txt', 'text/plain', 4, ?, ?, 'ready', '', '', '')`).run(await fileSha256(absolute), absolute);
  db.close();
  return { dir, rel: stored };
}

test('a backup of a not yet migrated folder stores relative paths; a damaged backup is refused before anything is written', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'cerebro-restore-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const { dir, rel } = await legacyFolder(root);
  const backup = join(root, 'respaldo');
  const made = await backupDataFolder(dir, backup);
  assert.deepEqual([made.originales.archivos, made.originales.enlazados, made.ausentes], [1, 1, []]);
  assert.equal((await stat(join(backup, rel))).ino, (await stat(join(dir, rel))).ino, 'hard-linked, not copied');

  const restored = await restoreBackup(backup, join(root, 'copia'), 'npx cerebro');
  assert.equal(restored.originales.archivos, 1);
  const copy = openDatabase(join(root, 'copia', 'cerebro.db'));
  assert.equal(copy.prepare('SELECT path FROM cerebro_documents').pluck().get(), rel);
  copy.close();

  // Replace the backup's original with other bytes of the same size (a new file: the link to the live one is cut).
  await rm(join(backup, rel));
  await writeFile(join(backup, rel), 'adio');
  await assert.rejects(restoreBackup(backup, join(root, 'otra'), 'npx cerebro'), /no coincide con su SHA-256/);
  assert.equal(existsSync(join(root, 'otra')), false, 'nothing written');
  await rm(join(backup, rel));
  await assert.rejects(restoreBackup(backup, join(root, 'otra'), 'npx cerebro'), /falta el original/);
  await assert.rejects(restoreBackup(dir, join(root, 'otra'), 'npx cerebro'), /no es un respaldo/);
  assert.equal(await readFile(join(dir, rel), 'utf8'), 'hola', 'the live original never changed');
});
