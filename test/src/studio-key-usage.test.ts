// GET /api/tokens/{id}/uso: a key's calls per route, last use and calls per day, for Studio's chart (issue #14).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { browserRequest, signIn, withPassword } from './support/studio.js';

const DAY = 86_400_000;

test('per-day and per-route counts are exact before and after the batched write, across midnight', async (t) => {
  // 23:59:30 UTC on some day: the calls below straddle midnight inside one flush interval.
  let now = Date.parse('2026-03-10T23:59:30.000Z');
  const h = await startTestHost(t, { clock: { now: () => now }, env: { CEREBRO_COUNTER_FLUSH_MS: '3600000' } });
  const key = await h.admin.issueKey(h.ownerId, 'integracion', [], 'escribe');
  const api = h.client.as(key.token);

  now -= 3 * DAY; // three days earlier: stored by a flush
  for (let i = 0; i < 4; i++) assert.equal((await api.get('/companies')).status, 200);
  await h.host.flushCounters();
  now += 3 * DAY;
  for (let i = 0; i < 2; i++) assert.equal((await api.get(`/rag/${h.spaceId}/documents`)).status, 200);
  now += 60_000; // past midnight, same flush interval
  assert.equal((await api.get('/companies')).status, 200);
  assert.equal((await api.get(`/rag/${h.spaceId}/indexing_status`)).status, 200);

  const check = async (label: string) => {
    const res = await h.client.get(`/tokens/${key.id}/uso?dias=5`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.id, key.id);
    assert.equal(res.body.nombre, 'integracion');
    assert.equal(res.body.llamadas, 8, label);
    assert.deepEqual(
      res.body.por_ruta,
      { 'GET /companies': 5, 'GET /rag/:espacio/documents': 2, 'GET /rag/:espacio/indexing_status': 1 },
      label,
    );
    assert.equal(res.body.ultimo_uso, new Date(now).toISOString(), label);
    assert.deepEqual(
      res.body.por_dia,
      [
        { dia: '2026-03-07', llamadas: 4, por_ruta: { 'GET /companies': 4 } },
        { dia: '2026-03-08', llamadas: 0, por_ruta: {} },
        { dia: '2026-03-09', llamadas: 0, por_ruta: {} },
        { dia: '2026-03-10', llamadas: 2, por_ruta: { 'GET /rag/:espacio/documents': 2 } },
        { dia: '2026-03-11', llamadas: 2, por_ruta: { 'GET /companies': 1, 'GET /rag/:espacio/indexing_status': 1 } },
      ],
      label,
    );
  };
  await check('pending in memory');
  await h.host.flushCounters();
  await check('written to the database');

  const listed = (await h.client.get('/tokens')).body.tokens.find((k: { id: string }) => k.id === key.id);
  assert.equal(listed.llamadas, 8, 'the listing agrees');
  const month = await h.client.get(`/tokens/${key.id}/uso`);
  assert.equal(month.body.por_dia.length, 30, 'default: 30 days');
  assert.equal(month.body.por_dia.at(-1).dia, '2026-03-11');
  assert.equal((await h.client.get(`/tokens/${key.id}/uso?dias=0`)).status, 422);
  assert.equal((await h.client.get(`/tokens/${key.id}/uso?dias=91`)).status, 422);
});

test("usage follows the listing's reach rules and works from the console cookie", async (t) => {
  const h = await startTestHost(t);
  await h.admin.createSpace({ id: 'otro', ownerId: h.ownerId, modules: ['api'] });
  const limited = await h.admin.issueKey(h.ownerId, 'solo-pruebas', [h.spaceId], 'lee');
  const wide = await h.admin.issueKey(h.ownerId, 'todas', [], 'escribe');
  assert.equal(
    (await h.client.get(`/tokens/${wide.id}/uso`, { key: limited.token })).status,
    404,
    'a limited key does not see a wider one',
  );
  assert.equal((await h.client.get(`/tokens/${limited.id}/uso`, { key: limited.token })).status, 200);
  const stranger = await h.admin.createOwner({ name: 'Otra' });
  const theirs = await h.admin.issueKey(stranger.id, 'ajena', [], 'lee');
  assert.equal((await h.client.get(`/tokens/${theirs.id}/uso`)).status, 404, "another owner's key");
  assert.equal((await h.client.get('/tokens/zz/uso')).status, 404);

  await withPassword(h);
  const s = await signIn(h.url);
  await h.client.get('/companies', { key: wide.token });
  const viaCookie = await browserRequest(h.url, 'GET', `/api/tokens/${wide.id}/uso?dias=1`, { cookie: s.cookie });
  assert.equal(viaCookie.status, 200, viaCookie.text);
  assert.equal(viaCookie.body.por_dia[0].llamadas, 1);
  const consoleCalls = await browserRequest(h.url, 'GET', '/api/tokens', { cookie: s.cookie });
  assert.ok(
    consoleCalls.body.tokens.every((k: { llamadas: number; id: string }) =>
      k.id === wide.id ? k.llamadas === 1 : true,
    ),
    'console calls are not counted against keys',
  );
});
