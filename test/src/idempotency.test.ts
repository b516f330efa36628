// Safe retries of paid POSTs with Idempotency-Key (issue #17, part 3).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definePlugin, type Clock } from '@cerebro/sdk';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { GUIDE_MD, filesForm, waitIndexed } from './support/rag.js';

/** A paid, idempotent plugin route whose handler counts its runs and can be held open until released. */
function paidPlugin() {
  const state = { runs: 0, gate: null as Promise<void> | null };
  const plugin = definePlugin({
    manifest: {
      id: 'cobro',
      version: '1.0.0',
      sdk: '^1.0.0',
      title: 'Cobro',
      routes: [
        {
          id: 'pagar',
          method: 'POST',
          path: '/pagos',
          permission: 'lee',
          credits: 2,
          idempotent: true,
          summary: 'Un pago',
        },
      ],
    },
    setup: () => ({
      handlers: {
        pagar: async (req) => {
          state.runs += 1;
          if (state.gate) await state.gate;
          const body = req.body as { falla?: boolean };
          if (body.falla) throw new Error('fallo del manejador');
          return { ejecucion: state.runs, recibido: req.body };
        },
      },
    }),
  });
  return { plugin, state };
}

const balance = async (h: TestHost) => (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.saldo as number;

test('a retry with the same key and body replays the stored answer without running or charging again', async (t) => {
  const { plugin, state } = paidPlugin();
  const h = await startTestHost(t, { plugins: [plugin], credits: 100 });
  const path = `/mod/cobro/${h.spaceId}/pagos`;
  const headers = { 'idempotency-key': '"pedido-7f3a"' };

  const first = await h.client.post(path, { json: { importe: 5 }, headers });
  const retry = await h.client.post(path, { json: { importe: 5 }, headers });
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('idempotent-replayed'), null);
  assert.deepEqual(
    [retry.status, retry.text, retry.headers.get('content-type')],
    [first.status, first.text, first.headers.get('content-type')],
  );
  assert.equal(retry.headers.get('idempotent-replayed'), 'true');
  assert.notEqual(
    retry.headers.get('x-request-id'),
    first.headers.get('x-request-id'),
    'each request keeps its own id',
  );
  assert.equal(state.runs, 1);
  assert.equal(await balance(h), 98, 'charged once');

  const reused = await h.client.post(path, { json: { importe: 6 }, headers });
  assert.deepEqual([reused.status, reused.body.codigo], [422, 'idempotency_key_reused']);
  assert.equal(state.runs, 1);

  // The key belongs to its caller: another key of the same owner with the same value runs anew.
  const other = await h.client.post(path, { json: { importe: 5 }, headers, key: h.readKey });
  assert.equal(other.headers.get('idempotent-replayed'), null);
  assert.equal(state.runs, 2);
  assert.equal(await balance(h), 96);
});

test('the same key while the first request runs is 409; a failed request frees its key and is refunded', async (t) => {
  const { plugin, state } = paidPlugin();
  const h = await startTestHost(t, { plugins: [plugin], credits: 100 });
  const path = `/mod/cobro/${h.spaceId}/pagos`;
  const headers = { 'idempotency-key': 'k-concurrente' };

  let release!: () => void;
  state.gate = new Promise((resolve) => {
    release = resolve;
  });
  const first = h.client.post(path, { json: { n: 1 }, headers });
  while (state.runs === 0) await new Promise((r) => setImmediate(r));
  const concurrent = await h.client.post(path, { json: { n: 1 }, headers });
  assert.deepEqual([concurrent.status, concurrent.body.codigo], [409, 'idempotency_in_flight']);
  release();
  assert.equal((await first).status, 200);
  state.gate = null;
  assert.equal((await h.client.post(path, { json: { n: 1 }, headers })).headers.get('idempotent-replayed'), 'true');
  assert.equal(state.runs, 1);

  const failing = { 'idempotency-key': 'k-falla' };
  assert.equal((await h.client.post(path, { json: { falla: true }, headers: failing })).status, 500);
  assert.equal(
    (await h.client.post(path, { json: { falla: true }, headers: failing })).status,
    500,
    'a failure is not replayed: it runs again',
  );
  assert.equal(state.runs, 3);
  assert.equal(await balance(h), 98, 'only the successful request paid');
});

test('a stored answer expires after 24 h and the key runs (and pays) again', async (t) => {
  let now = Date.parse('2026-11-20T10:00:00Z');
  const clock: Clock = { now: () => now };
  const { plugin, state } = paidPlugin();
  const h = await startTestHost(t, { plugins: [plugin], credits: 100, clock });
  const send = () =>
    h.client.post(`/mod/cobro/${h.spaceId}/pagos`, { json: { n: 1 }, headers: { 'idempotency-key': 'k-dia' } });

  await send();
  now += 24 * 60 * 60 * 1000 - 1000;
  assert.equal((await send()).headers.get('idempotent-replayed'), 'true');
  now += 2000;
  const later = await send();
  assert.equal(later.headers.get('idempotent-replayed'), null);
  assert.equal(state.runs, 2);
  assert.equal(await balance(h), 96);
});

test('malformed keys are 422 naming the header; without a key nothing changes', async (t) => {
  const { plugin, state } = paidPlugin();
  const h = await startTestHost(t, { plugins: [plugin], credits: 100 });
  const path = `/mod/cobro/${h.spaceId}/pagos`;
  for (const key of ['x'.repeat(256), '""', 'clave con espacios', 'clave-ñ']) {
    const res = await h.client.post(path, { json: {}, headers: { 'idempotency-key': key } });
    assert.equal(res.status, 422, key);
    assert.deepEqual(res.body.detail[0].loc, ['header', 'Idempotency-Key']);
  }
  assert.equal(state.runs, 0);
  assert.equal((await h.client.post(path, { json: {}, headers: { 'idempotency-key': 'x'.repeat(255) } })).status, 200);
  await h.client.post(path, { json: {} });
  await h.client.post(path, { json: {} });
  assert.equal(state.runs, 3, 'requests without a key are never deduplicated');
});

test('asking the Cerebro: a retried question is charged once and replayed identically; the stream refuses the header', async (t) => {
  const h = await startTestHost(t, { credits: 100 });
  await h.client.patch(`/rag/${h.spaceId}/config`, { json: { cache_segundos: 0 } });
  await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: filesForm({ 'guia.md': GUIDE_MD }) });
  await waitIndexed(h.client, h.spaceId);
  const before = await balance(h);
  const ask = () =>
    h.client.post(`/rag/${h.spaceId}/conversations`, {
      json: { pregunta: '¿Cómo actualizo el sistema?' },
      headers: { 'idempotency-key': 'pregunta-1' },
    });
  const first = await ask();
  const retry = await ask();
  assert.equal(first.status, 200, first.text);
  assert.equal(retry.text, first.text, 'same conversation id, same answer');
  assert.equal(retry.headers.get('idempotent-replayed'), 'true');
  assert.equal(await balance(h), before - 1);

  const stream = await h.client.post(`/rag/${h.spaceId}/conversations/stream`, {
    json: { pregunta: '¿Cómo actualizo el sistema?' },
    headers: { 'idempotency-key': 'pregunta-2' },
  });
  assert.deepEqual([stream.status, stream.body.codigo], [400, 'idempotency_not_supported']);
  assert.equal(await balance(h), before - 1);

  const doc = (await h.client.get('/openapi.json', { key: null })).body;
  const headerParams = (op: { parameters?: { in: string; name: string }[] }) =>
    (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
  assert.deepEqual(headerParams(doc.paths['/rag/{espacio}/conversations'].post), ['Idempotency-Key']);
  assert.deepEqual(headerParams(doc.paths['/rag/{espacio}/conversations/stream'].post), []);
});
