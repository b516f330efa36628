// /api/health: phase and overall state for anyone, details only for the operator (issue #16, defect 11).
import assert from 'node:assert/strict';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { definePlugin } from '@cerebro/sdk';
import { startTestHost } from '@cerebro/sdk/testing';
import { echoPlugin } from './support/plugins.js';
import { onPostgres } from './support/backend.js';

const broken = definePlugin({
  manifest: { id: 'roto', version: '9.9.9', sdk: '^1.0.0', title: 'Roto', routes: [] },
  setup: () => {
    throw new Error('contraseña de la base interna: hunter2');
  },
});

test('anyone sees the phase and overall state; versions, plugins and errors only with the operator credential', async (t) => {
  const h = await startTestHost(t, { plugins: [echoPlugin(), broken] });
  for (const key of [null, h.writeKey, h.readKey, (await h.admin.issueConsoleSession(h.ownerId)).token]) {
    const res = await h.client.get('/health', { key });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { estado: 'ready', salud: 'degradada', rol: 'todo' }, String(key));
    assert.doesNotMatch(res.text, /hunter2|9\.9\.9|roto/);
  }
  assert.equal(
    (await h.client.get('/health', { key: 'crb_0123456789abcdef.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' })).status,
    401,
  );

  const operator = await h.client.get('/health', { key: (await h.admin.issueOperatorCredential('ops')).token });
  assert.equal(operator.body.estado, 'ready');
  assert.equal(operator.body.salud, 'degradada');
  assert.equal(typeof operator.body.version, 'string');
  assert.deepEqual(Object.keys(operator.body.cerebro).sort(), [
    'archivos',
    'busqueda',
    'busqueda_vectores',
    'indice_pasajes',
    'motor',
    'reordenacion',
  ]);
  // The embedded database: FTS5 and sqlite-vec (on PostgreSQL: postgresql_bm25, and pgvector or exacta_en_el_motor);
  // originals in the data folder (CEREBRO_ARCHIVOS unset).
  const { indice_pasajes, busqueda_vectores, archivos } = operator.body.cerebro;
  assert.equal(archivos, 'carpeta_de_datos');
  if (onPostgres) {
    assert.equal(indice_pasajes, 'postgresql_bm25');
    assert.ok(['pgvector', 'exacta_en_el_motor'].includes(busqueda_vectores), busqueda_vectores);
  } else assert.deepEqual([indice_pasajes, busqueda_vectores], ['sqlite_fts5', 'sqlite_vec']);
  const roto = operator.body.plugins.find((p: { id: string }) => p.id === 'roto');
  assert.equal(roto.version, '9.9.9');
  assert.match(roto.error, /hunter2/);
});

test('with every plugin active the overall state is ok', async (t) => {
  const h = await startTestHost(t, { plugins: [echoPlugin()] });
  assert.deepEqual((await h.client.get('/health', { key: null })).body, { estado: 'ready', salud: 'ok', rol: 'todo' });
});

test('health keeps answering while the host stops, for the public and for the operator', async (t) => {
  let release!: () => void;
  let entered!: () => void;
  const inHandler = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const h = await startTestHost(t, {
    plugins: [
      echoPlugin(
        {},
        {
          leer: async () => {
            entered();
            await gate;
            return {};
          },
          escribir: () => ({}),
        },
      ),
    ],
  });
  const operator = (await h.admin.issueOperatorCredential('ops')).token;
  // RunningHost.handler (the kit's type leaves it out). The host's own listener stops accepting connections when it stops; a second server on the same request
  // handler shows what the pipeline answers meanwhile.
  const side = createServer((h.host as unknown as { handler: RequestListener }).handler).listen(0, '127.0.0.1');
  await new Promise((resolve) => side.once('listening', resolve));
  t.after(() => side.close());
  const base = `http://127.0.0.1:${(side.address() as AddressInfo).port}/api`;

  const slow = h.client.get(`/mod/eco/${h.spaceId}/eco`);
  await inHandler;
  const closing = h.host.close();
  const pub = await fetch(`${base}/health`);
  assert.equal(pub.status, 200);
  assert.deepEqual(await pub.json(), { estado: 'stopping', salud: 'ok', rol: 'todo' });
  const detailed = await fetch(`${base}/health`, { headers: { authorization: `Bearer ${operator}` } });
  assert.equal(((await detailed.json()) as { plugins: unknown[] }).plugins.length, 1);
  assert.equal((await fetch(`${base}/ready`)).status, 503);
  release();
  await slow;
  await closing;
});
