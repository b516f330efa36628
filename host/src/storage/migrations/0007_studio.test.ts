import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../database.js';
import { applyMigrations } from '../migrator.js';
import { HOST_MIGRATIONS } from './index.js';

test('0007_studio on a database with data: emails lower-cased and unique (the older owner keeps a shared one), sessions get an expiry', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-0007-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const db = openDatabase(join(dir, 'cerebro.db'));
  t.after(() => db.close());
  const before = HOST_MIGRATIONS.filter((m) => m.id < '0007');
  applyMigrations(db, { owner: 'host', migrations: before });
  const owner = db.prepare('INSERT INTO owners (id, name, email, created_at, deleted_at) VALUES (?, ?, ?, ?, ?)');
  owner.run('own_vieja', 'Vieja', ' Ana@Example.com ', '2025-01-01T00:00:00.000Z', null);
  owner.run('own_nueva', 'Nueva', 'ana@example.COM', '2025-06-01T00:00:00.000Z', null);
  owner.run('own_borrada', 'Borrada', 'ana@example.com', '2024-01-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z');
  owner.run('own_otra', 'Otra', 'Otra@Example.com', '2025-01-01T00:00:00.000Z', null);
  db.prepare('INSERT INTO console_sessions (id, owner_id, secret_digest, created_at) VALUES (?, ?, ?, ?)').run(
    '0123456789abcdef',
    'own_vieja',
    Buffer.alloc(32),
    '2025-01-02T00:00:00.000Z',
  );

  // Up to this migration only: later ones have tests of their own.
  assert.deepEqual(applyMigrations(db, { owner: 'host', migrations: HOST_MIGRATIONS.filter((m) => m.id < '0008') }), [
    '0007_studio',
  ]);
  const emails = Object.fromEntries(
    (db.prepare('SELECT id, email FROM owners').all() as { id: string; email: string | null }[]).map((r) => [
      r.id,
      r.email,
    ]),
  );
  assert.deepEqual(emails, {
    own_vieja: 'ana@example.com',
    own_nueva: null,
    own_borrada: 'ana@example.com',
    own_otra: 'otra@example.com',
  });
  assert.throws(
    () => db.prepare("UPDATE owners SET email = 'otra@example.com' WHERE id = 'own_nueva'").run(),
    /UNIQUE/,
  );
  const session = db
    .prepare('SELECT expires_at, max_expires_at, last_seen_at, origin FROM console_sessions')
    .get() as Record<string, string>;
  const inAWeek = Date.now() + 7 * 86_400_000;
  assert.ok(Math.abs(Date.parse(session.expires_at!) - inAWeek) < 120_000, session.expires_at);
  assert.match(
    session.expires_at!,
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
    'the same format as toISOString, so text comparison orders them',
  );
  assert.equal(session.last_seen_at, '2025-01-02T00:00:00.000Z');
  assert.equal(session.origin, 'operador');
});
