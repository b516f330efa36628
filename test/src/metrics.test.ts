// GET /api/metrics (issue #17, part 4): Prometheus text for the operator, and the optional listener without credentials.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiError, definePlugin } from '@cerebro/sdk';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { GUIDE_MD, filesForm, waitIndexed } from './support/rag.js';
import { onPostgres } from './support/backend.js';

/** The value of one sample line (`name{labels} value`), or undefined when the line is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(/,(?=[a-zA-Z_]+=")/).filter(Boolean);
    if (wanted.every((w) => present.includes(w)) && present.length === wanted.length) return Number(match[3]);
  }
  return undefined;
}

const scrape = async (h: TestHost, operator: string): Promise<string> => {
  const res = await h.client.get('/metrics', { key: operator });
  assert.equal(res.status, 200, res.text);
  return res.text;
};

const gauges = definePlugin({
  manifest: { id: 'medidor', version: '1.2.3', sdk: '^1.0.0', title: 'Medidor', routes: [] },
  setup: () => ({
    handlers: {},
    metrics: {
      cola: { help: 'Trabajos en cola.', read: () => 7 },
      motor: {
        help: 'Estado del motor.',
        labels: ['estado'],
        read: () => [
          { labels: { estado: 'listo' }, value: 1 },
          { labels: { estado: 'cargando' }, value: 0 },
        ],
      },
      roto: {
        help: 'Siempre falla.',
        read: () => {
          throw new Error('sin datos');
        },
      },
      'Nombre-Malo': { help: 'Nombre no válido.', read: () => 1 },
    },
  }),
});

test('only the operator credential reads /api/metrics', async (t) => {
  const h = await startTestHost(t);
  assert.equal((await h.client.get('/metrics', { key: null })).status, 401);
  assert.equal((await h.client.get('/metrics', { key: h.writeKey })).status, 403);
  const res = await h.client.get('/metrics', { key: (await h.admin.issueOperatorCredential('ops')).token });
  assert.equal(res.status, 200);
  assert.match(String(res.headers.get('content-type')), /^text\/plain; version=0\.0\.4/);
  assert.match(res.text, /# TYPE cerebro_peticiones_total counter/);
  assert.match(res.text, /# TYPE cerebro_peticion_duracion_segundos histogram/);
});

test('requests by route and status, latency, credits, documents, passages, indexing and database size', async (t) => {
  const h = await startTestHost(t);
  const operator = (await h.admin.issueOperatorCredential('ops')).token;
  for (let i = 0; i < 3; i++) assert.equal((await h.client.get('/companies')).status, 200);
  assert.equal(
    (await h.client.get('/companies', { key: 'crb_0123456789abcdef.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' }))
      .status,
    401,
  );
  await h.client.post(`/rag/${h.spaceId}/load_documents`, {
    body: filesForm({ 'guia.md': GUIDE_MD, 'vacio.txt': '' }),
  });
  await waitIndexed(h.client, h.spaceId);
  assert.equal(
    (await h.client.post(`/rag/${h.spaceId}/conversations`, { json: { pregunta: '¿Cómo actualizo el sistema?' } }))
      .status,
    200,
  );

  const text = await scrape(h, operator);
  assert.equal(sample(text, 'cerebro_peticiones_total', { ruta: 'GET /companies', estado: '200' }), 3);
  assert.equal(sample(text, 'cerebro_peticiones_total', { ruta: 'GET /companies', estado: '401' }), 1);
  assert.equal(sample(text, 'cerebro_peticion_duracion_segundos_count', { ruta: 'GET /companies' }), 4);
  assert.equal(sample(text, 'cerebro_peticion_duracion_segundos_bucket', { ruta: 'GET /companies', le: '+Inf' }), 4);
  assert.equal(sample(text, 'cerebro_creditos_total', { motivo: 'consumo' }), 1);
  assert.equal(sample(text, 'cerebro_creditos_total', { motivo: 'reembolso' }), 0);
  assert.equal(sample(text, 'cerebro_documentos', { espacio: h.spaceId, estado: 'ready' }), 1);
  assert.equal(sample(text, 'cerebro_documentos', { espacio: h.spaceId, estado: 'failed' }), 1);
  assert.ok((sample(text, 'cerebro_pasajes', { espacio: h.spaceId }) ?? 0) > 0);
  assert.equal(sample(text, 'cerebro_indexacion_cola', { estado: 'en_cola' }), 0);
  assert.equal(sample(text, 'cerebro_indexacion_duracion_segundos_count', { resultado: 'listo' }), 1);
  assert.equal(sample(text, 'cerebro_indexacion_duracion_segundos_count', { resultado: 'fallido' }), 1);
  assert.equal(sample(text, 'cerebro_indexacion_fallos_total', { codigo: 'vacio' }), 1);
  // SQLite's file sizes; on PostgreSQL there is no file, and no gauge claiming a size of 0.
  if (onPostgres) assert.doesNotMatch(text, /cerebro_sqlite_bytes/);
  else assert.ok((sample(text, 'cerebro_sqlite_bytes', { base: 'cerebro' }) ?? 0) > 0);
  // The scrape itself is in flight while the gauge is read.
  assert.equal(sample(text, 'cerebro_peticiones_en_curso'), 1);
});

test('credits: a failed paid request counts its debit and its refund; a top-up counts as recarga', async (t) => {
  const paid = definePlugin({
    manifest: {
      id: 'cobro',
      version: '1.0.0',
      sdk: '^1.0.0',
      title: 'Cobro',
      routes: [
        { id: 'falla', method: 'POST', path: '/falla', permission: 'escribe', credits: 2, summary: 'Cobra y falla' },
      ],
    },
    setup: () => ({
      handlers: {
        falla: () => {
          throw apiError('bad_request');
        },
      },
    }),
  });
  const h = await startTestHost(t, { plugins: [paid] });
  const operator = (await h.admin.issueOperatorCredential('ops')).token;
  assert.equal((await h.client.post(`/mod/cobro/${h.spaceId}/falla`, { json: {} })).status, 400);
  await h.admin.addCredits(h.accountId, 5);
  const text = await scrape(h, operator);
  assert.equal(sample(text, 'cerebro_creditos_total', { motivo: 'consumo' }), 2);
  assert.equal(sample(text, 'cerebro_creditos_total', { motivo: 'reembolso' }), 2);
  // The owner's 1000 starting credits are a top-up too.
  assert.equal(sample(text, 'cerebro_creditos_total', { motivo: 'recarga' }), 1000 + 5);
});

test('plugin states and plugin gauges; a gauge that throws reads NaN, one with a bad name is left out', async (t) => {
  const h = await startTestHost(t, { plugins: [gauges] });
  const text = await scrape(h, (await h.admin.issueOperatorCredential('ops')).token);
  assert.equal(sample(text, 'cerebro_plugin_activo', { plugin: 'medidor', version: '1.2.3' }), 1);
  assert.equal(sample(text, 'cerebro_plugin_medidor_cola'), 7);
  assert.equal(sample(text, 'cerebro_plugin_medidor_motor', { estado: 'listo' }), 1);
  assert.equal(sample(text, 'cerebro_plugin_medidor_motor', { estado: 'cargando' }), 0);
  assert.ok(Number.isNaN(sample(text, 'cerebro_plugin_medidor_roto')));
  assert.doesNotMatch(text, /Nombre-Malo|nombre_malo/i);
});

test('CEREBRO_METRICS_PORT opens a listener without credentials that serves only the metrics', async (t) => {
  const h = await startTestHost(t, { env: { CEREBRO_METRICS_PORT: '0' } });
  const base = (h.host as unknown as { metricsUrl: string }).metricsUrl;
  assert.match(base, /^http:\/\/127\.0\.0\.1:\d+$/);
  const res = await fetch(`${base}/metrics`);
  assert.equal(res.status, 200);
  assert.match(await res.text(), /cerebro_peticiones_total/);
  const other = await fetch(`${base}/api/companies`);
  assert.equal(other.status, 404);
  assert.deepEqual(await other.json(), { detail: 'Ruta no encontrada.' });
});
