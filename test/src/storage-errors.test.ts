// How the server answers a full disk and a busy database met inside a route (issue 23, item 3): 507
// `insufficient_storage` and 503 `database_busy` with Retry-After, the catalogue body, never a bare 500. The errors
// are the real ones better-sqlite3 throws (a capped database, a lock held by another connection).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { ERROR_CATALOGUE } from '@cerebro/sdk';
import { startTestHost } from '@cerebro/sdk/testing';
import { echoPlugin } from './support/plugins.js';

test('SQLITE_FULL answers 507 insufficient_storage; SQLITE_BUSY answers 503 database_busy with Retry-After', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-storage-errors-'));
  const capped = new Database(':memory:');
  capped.exec('CREATE TABLE t (v TEXT)');
  capped.pragma(`max_page_count = ${Number(capped.pragma('page_count', { simple: true }))}`);
  const holder = new Database(join(dir, 'b.db'));
  holder.exec('CREATE TABLE t (v TEXT)');
  const waiter = new Database(join(dir, 'b.db'), { timeout: 0 });
  t.after(async () => {
    capped.close();
    holder.close();
    waiter.close();
    await rm(dir, { recursive: true, force: true });
  });

  const h = await startTestHost(t, {
    plugins: [
      echoPlugin(
        {},
        {
          leer: () => {
            waiter.prepare('INSERT INTO t VALUES (1)').run();
            return {};
          },
          escribir: () => {
            capped.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(100_000));
            return {};
          },
        },
      ),
    ],
  });
  const full = await h.client.post(`/mod/eco/${h.spaceId}/eco`, { json: {} });
  assert.equal(full.status, 507);
  assert.deepEqual(full.body, { detail: ERROR_CATALOGUE.insufficient_storage.detail, codigo: 'insufficient_storage' });

  holder.exec('BEGIN IMMEDIATE');
  const busy = await h.client.get(`/mod/eco/${h.spaceId}/eco`);
  holder.exec('ROLLBACK');
  assert.equal(busy.status, 503);
  assert.deepEqual(busy.body, { detail: ERROR_CATALOGUE.database_busy.detail, codigo: 'database_busy' });
  assert.equal(busy.headers.get('retry-after'), '2');

  const openapi = (await h.client.get('/openapi.json', { key: null })).body;
  assert.ok(openapi.components.schemas.Error.properties.codigo.enum.includes('insufficient_storage'));
  assert.match(openapi.paths['/mod/eco/{espacio}/eco'].post.responses['507'].description, /insufficient_storage/);
});

test('health is degradada, with the reason for the operator, when the data disk has less free space than CEREBRO_DISK_MIN_FREE_BYTES', async (t) => {
  const h = await startTestHost(t, { env: { CEREBRO_DISK_MIN_FREE_BYTES: String(2 ** 52) } });
  assert.deepEqual((await h.client.get('/health', { key: null })).body, {
    estado: 'ready',
    salud: 'degradada',
    rol: 'todo',
  });
  const operator = (await h.admin.issueOperatorCredential('ops')).token;
  const detail = (await h.client.get('/health', { key: operator })).body;
  assert.equal(detail.salud, 'degradada');
  assert.deepEqual(detail.motivos, [
    `Queda poco espacio en el disco de datos (menos de ${2 ** 52} bytes libres): las subidas y escrituras pueden fallar con 507.`,
  ]);
  assert.ok(detail.disco.libre_bytes > 0 && detail.disco.total_bytes >= detail.disco.libre_bytes);
  const metrics = (await h.client.get('/metrics', { key: operator })).text;
  assert.match(metrics, /^cerebro_disco_libre_bytes \d+$/m);
  assert.match(metrics, /^cerebro_disco_total_bytes \d+$/m);
});
