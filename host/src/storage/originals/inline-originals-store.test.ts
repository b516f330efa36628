// Small originals read whole kept in the database: stored, read, handed to indexing as bytes, discarded and retired
// as rows; the rest go to the wrapped store. A data-folder backup carries them inside its database copy, names no
// file for them, and restores them.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { test } from 'node:test';
import { openDatabase } from '../database.js';
import { backupDataFolder } from '../data-backup.js';
import { applyMigrations } from '../migrator.js';
import { HOST_MIGRATIONS } from '../migrations/index.js';
import { restoreBackup } from '../restore.js';
import { SQLITE_REMOVE_UNNAMED, SqliteInlineOriginalRepository } from '../sqlite/inline-original-repository.js';
import { INLINE_MAX_BYTES, InlineOriginalsStore, isInlineOriginal } from './inline-originals-store.js';
import { FolderOriginalsStore } from './originals-store.js';

async function storeIn(t: { after(fn: () => Promise<void>): void }) {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-en-bd-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const db = openDatabase(join(dataDir, 'cerebro.db'));
  applyMigrations(db, { owner: 'host', migrations: HOST_MIGRATIONS });
  t.after(async () => void db.close());
  const store = new InlineOriginalsStore(new FolderOriginalsStore(dataDir), new SqliteInlineOriginalRepository(db));
  const files = async () =>
    (await readdir(join(dataDir, 'documentos'), { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) =>
      e.isFile(),
    ).length;
  return { dataDir, db, store, files };
}

const bytes = (s: string) => new TextEncoder().encode(s);

test('a small original read whole is a row, handed to indexing as bytes; others are files', async (t) => {
  const { store, files, db } = await storeIn(t);
  const small = await store.putBytes('s', bytes('<p>hola</p>'), { readWhole: true });
  assert.ok(isInlineOriginal(small), small);
  assert.equal(await files(), 0, 'no file for it');
  const local = await store.local(small);
  assert.equal(Buffer.from(local.content!).toString(), '<p>hola</p>');
  assert.equal(local.path, '');
  const read = await store.read(small);
  assert.equal(read?.bytes, 11);
  assert.equal(await text(read!.stream), '<p>hola</p>');

  // Streamed formats (readWhole false or absent), and anything past INLINE_MAX_BYTES, go to the wrapped store.
  const streamed = await store.putBytes('s', bytes('texto'));
  const large = await store.putBytes('s', new Uint8Array(INLINE_MAX_BYTES + 1), { readWhole: true });
  assert.ok(!isInlineOriginal(streamed) && !isInlineOriginal(large));
  assert.equal(await files(), 2);
  assert.equal((await store.local(streamed)).content, undefined);
  assert.equal(store.kind, 'carpeta_de_datos');

  // Retired (a replaced or removed version) and discarded (never recorded): the row goes at once.
  const other = await store.putBytes('s', bytes('<p>otra</p>'), { readWhole: true });
  await store.retire(small);
  await store.discard(other);
  assert.equal(await store.read(small), null);
  await assert.rejects(store.local(other), (e: NodeJS.ErrnoException) => e.code === 'ENOENT');
  assert.equal(db.prepare('SELECT count(*) FROM cerebro_inline_originals').pluck().get(), 0);
  await store.retire(large);
  assert.equal(await store.read(large), null);
});

test('a data-folder backup carries the originals kept in the database and names no file for them', async (t) => {
  const { dataDir, db, store } = await storeIn(t);
  const html = '<p>página guardada en la base</p>';
  const inline = await store.putBytes('s', bytes(html), { readWhole: true });
  const file = await store.putBytes('s', bytes('en archivo'));
  const insert =
    db.prepare(`INSERT INTO cerebro_documents (space, id, name, media_type, bytes, sha256, path, state, created_at, updated_at, queued_at)
    VALUES ('s', ?, ?, ?, ?, NULL, ?, 'ready', '', '', '')`);
  insert.run('d1', 'p.html', 'text/html', bytes(html).byteLength, inline);
  insert.run('d2', 'a.txt', 'text/plain', 10, file);
  const backup = `${dataDir}-respaldo`;
  const copy = `${dataDir}-copia`;
  t.after(() => rm(backup, { recursive: true, force: true }));
  t.after(() => rm(copy, { recursive: true, force: true }));
  const made = await backupDataFolder(dataDir, backup);
  assert.deepEqual([made.originales.archivos, made.ausentes], [1, []], 'one file; the row is no missing file');
  await restoreBackup(backup, copy, 'npx cerebro');
  const restored = openDatabase(join(copy, 'cerebro.db'));
  t.after(async () => void restored.close());
  const again = new InlineOriginalsStore(new FolderOriginalsStore(copy), new SqliteInlineOriginalRepository(restored));
  assert.equal(await text((await again.read(inline))!.stream), html);
  assert.equal(await text((await again.read(file))!.stream), 'en archivo');
});

test('the start-up sweep of unnamed rows reads two indexes, neither the rows’ bytes nor every document per row', async (t) => {
  const { db } = await storeIn(t);
  const plan = db
    .prepare(`EXPLAIN QUERY PLAN ${SQLITE_REMOVE_UNNAMED}`)
    .all(0)
    .map((r) => (r as { detail: string }).detail);
  assert.ok(
    plan.some((d) => d.includes('COVERING INDEX cerebro_inline_originals_age')),
    plan.join('\n'),
  );
  assert.ok(
    plan.some((d) => d.includes('INDEX cerebro_documents_path (path=?)')),
    plan.join('\n'),
  );
});
