import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../database.js';
import { applyMigrations } from '../migrator.js';
import { HOST_MIGRATIONS } from './index.js';

test('0009 makes the absolute paths of older versions relative to the data folder, wherever that folder was', () => {
  const db = openDatabase(':memory:');
  applyMigrations(db, { owner: 'host', migrations: HOST_MIGRATIONS.filter((m) => m.id < '0009') });
  const tail = 'documentos/0123456789abcdef01234567/9b2f8c1e-5d4a-4c3b-8e7f-0a1b2c3d4e5f';
  const insert =
    db.prepare(`INSERT INTO cerebro_documents (space, id, name, media_type, bytes, path, state, created_at, updated_at, queued_at)
    VALUES ('s', ?, ?, 'text/plain', 1, ?, 'ready', '', '', '')`);
  const rows: Record<string, string> = {
    unix: `/var/lib/cerebro/${tail}`,
    nested: `/srv/documentos/datos/${tail}`, // the data folder's own path may contain "documentos"
    windows: `C:\\cerebro\\datos\\${tail.replace(/\//g, '\\')}`,
    relative: tail,
    foreign: '/tmp/otro/archivo.txt', // not the stored shape: left as it is (the code resolves it as absolute)
  };
  for (const [id, path] of Object.entries(rows)) insert.run(id, `${id}.txt`, path);
  assert.deepEqual(applyMigrations(db, { owner: 'host', migrations: HOST_MIGRATIONS.filter((m) => m.id < '0010') }), [
    '0009_relative_document_paths',
  ]);
  const paths = Object.fromEntries(
    (db.prepare('SELECT id, path FROM cerebro_documents').all() as { id: string; path: string }[]).map((r) => [
      r.id,
      r.path,
    ]),
  );
  assert.deepEqual(paths, {
    unix: tail,
    nested: tail,
    windows: tail,
    relative: tail,
    foreign: '/tmp/otro/archivo.txt',
  });
  db.close();
});
