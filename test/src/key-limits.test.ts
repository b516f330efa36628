// Limits per key (issue #27 item 5): a key's own per-minute limit and daily quota, set when it is created and
// changed later; the space's settings routes stay reachable for a write key of its owner; the RateLimit-* headers
// name the limit that applied. One `todo` process here (counted in memory); multiprocess.test.ts covers `api`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { echoPlugin } from './support/plugins.js';

async function host(t: { after(fn: () => unknown): void }): Promise<TestHost> {
  return startTestHost(t, { plugins: [echoPlugin()] });
}
const eco = (h: TestHost) => `/mod/eco/${h.spaceId}/eco`;

/** Waits, if needed, so the next `seconds` fall inside one clock minute (the windows of per-minute limits). */
async function awayFromMinuteEnd(seconds: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}

async function newKey(h: TestHost, body: Record<string, unknown>, key?: string) {
  const res = await h.client.post('/tokens', { key, json: { nombre: 'con límites', ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body.token as { id: string; token: string; limite_por_minuto: number | null; cuota_diaria: number | null };
}

describe('limits per key', () => {
  test("a key's own per-minute limit refuses it alone, and the headers name the key's limit", async (t) => {
    const h = await host(t);
    await awayFromMinuteEnd(10);
    const limited = await newKey(h, { limite_por_minuto: 2 });
    assert.deepEqual([limited.limite_por_minuto, limited.cuota_diaria], [2, null]);
    const first = await h.client.get(eco(h), { key: limited.token });
    assert.equal(first.status, 200);
    // Both limits apply (the space's default 600 too): the one closest to refusing is reported and listed first.
    assert.equal(first.headers.get('ratelimit-limit'), '2');
    assert.equal(first.headers.get('ratelimit-remaining'), '1');
    assert.equal(first.headers.get('ratelimit-policy'), '2;w=60;limite="clave", 600;w=60;limite="espacio"');
    assert.equal((await h.client.get(eco(h), { key: limited.token })).status, 200);
    const refused = await h.client.get(eco(h), { key: limited.token });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.codigo, 'rate_limited');
    assert.match(refused.body.detail, /^Demasiadas peticiones: esta clave admite 2 por minuto\. Reintenta en \d+ s\.$/);
    // Every limit that applies is listed, the one that refused first, though the space's was not counted.
    assert.equal(refused.headers.get('ratelimit-policy'), '2;w=60;limite="clave", 600;w=60;limite="espacio"');
    assert.equal(refused.headers.get('ratelimit-limit'), '2');
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    // The space's other keys are not held back by this key's limit.
    const other = await h.client.get(eco(h));
    assert.equal(other.status, 200);
    assert.equal(other.headers.get('ratelimit-policy'), '600;w=60;limite="espacio"');
  });

  test('a 429 lists every limit that applies, the one that refused first, also those it did not reach', async (t) => {
    const h = await host(t);
    await awayFromMinuteEnd(10);
    const config = `/companies/${h.spaceId}/api-config`;
    assert.equal((await h.client.patch(config, { json: { cuota_diaria: 1000 } })).status, 200);
    const limited = await newKey(h, { limite_por_minuto: 1, cuota_diaria: 500 });
    assert.equal((await h.client.get(eco(h), { key: limited.token })).status, 200);
    const refused = await h.client.get(eco(h), { key: limited.token });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.codigo, 'rate_limited');
    // Counted in this order: the key's minute, the space's minute, the key's day, the space's day.
    assert.equal(
      refused.headers.get('ratelimit-policy'),
      '1;w=60;limite="clave", 600;w=60;limite="espacio", 500;w=86400;limite="clave", 1000;w=86400;limite="espacio"',
    );
    assert.deepEqual([refused.headers.get('ratelimit-limit'), refused.headers.get('ratelimit-remaining')], ['1', '0']);
  });

  test("a key's limit above the space's never widens it: the space's refuses, and is named", async (t) => {
    const h = await host(t);
    await awayFromMinuteEnd(10);
    const generous = await newKey(h, { limite_por_minuto: 50 });
    assert.equal(
      (await h.client.patch(`/companies/${h.spaceId}/api-config`, { json: { limite_por_minuto: 2 } })).status,
      200,
    );
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await h.client.get(eco(h), { key: generous.token })).status);
    assert.deepEqual(statuses, [200, 200, 429]);
    const refused = await h.client.get(eco(h), { key: generous.token });
    assert.match(refused.body.detail, /este espacio admite 2 por minuto/);
    // Refused by the space's window, after the key's counted it: the key's own is listed after the one that refused.
    assert.equal(refused.headers.get('ratelimit-policy'), '2;w=60;limite="espacio", 50;w=60;limite="clave"');
  });

  test("a key's own daily quota counts its calls on every space it reaches", async (t) => {
    const h = await host(t);
    await h.admin.createSpace({ id: 'segundo', ownerId: h.ownerId, modules: ['api', 'eco'] });
    const quota = await newKey(h, { cuota_diaria: 3 });
    assert.equal((await h.client.get(eco(h), { key: quota.token })).status, 200);
    assert.equal((await h.client.get('/mod/eco/segundo/eco', { key: quota.token })).status, 200);
    const last = await h.client.get('/mod/eco/segundo/eco', { key: quota.token });
    assert.equal(last.status, 200);
    assert.equal(last.headers.get('ratelimit-remaining'), '0');
    assert.match(last.headers.get('ratelimit-policy')!, /^3;w=86400;limite="clave"/);
    const over = await h.client.get(eco(h), { key: quota.token });
    assert.equal(over.status, 429);
    assert.equal(over.body.codigo, 'daily_quota_exceeded');
    assert.equal(
      over.body.detail,
      'Se ha agotado la cuota diaria de 3 peticiones de esta clave; se renueva a las 00:00 UTC.',
    );
    // Raised by the owner (a console session here): from the next request on.
    const session = (await h.admin.issueConsoleSession(h.ownerId)).token;
    const raised = await h.client.patch(`/tokens/${quota.id}`, { key: session, json: { cuota_diaria: 4 } });
    assert.equal(raised.status, 200, raised.text);
    assert.deepEqual([raised.body.limite_por_minuto, raised.body.cuota_diaria, raised.body.llamadas], [null, 4, 4]);
    assert.equal((await h.client.get(eco(h), { key: quota.token })).status, 200);
    assert.equal((await h.client.get(eco(h), { key: quota.token })).status, 429);
    const listed = (await h.client.get('/tokens')).body.tokens.find((k: { id: string }) => k.id === quota.id);
    assert.deepEqual([listed.limite_por_minuto, listed.cuota_diaria], [null, 4]);
  });

  test('limit 3/min on the space: the 4th request to api-config still passes, and raises the limit', async (t) => {
    const h = await host(t);
    await awayFromMinuteEnd(10);
    const config = `/companies/${h.spaceId}/api-config`;
    assert.equal((await h.client.patch(config, { json: { limite_por_minuto: 3 } })).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await h.client.get(eco(h))).status, 200);
    assert.equal((await h.client.get(eco(h))).status, 429, 'the space is at its limit');
    // Its own settings are not refused to a write key of the owner (GET and PATCH), nor given its headers.
    const read = await h.client.get(config);
    assert.equal(read.status, 200);
    assert.equal(read.headers.get('ratelimit-limit'), null);
    const raised = await h.client.patch(config, { json: { limite_por_minuto: 10 } });
    assert.equal(raised.status, 200, raised.text);
    assert.equal(raised.body.limite_por_minuto, 10);
    assert.equal((await h.client.get(eco(h))).status, 200, 'the raised limit applies at once');
    // A read key is limited there like anywhere else.
    assert.equal((await h.client.patch(config, { json: { limite_por_minuto: 3 } })).status, 200);
    for (let i = 0; i < 3; i++) await h.client.get(eco(h));
    assert.equal((await h.client.get(config, { key: h.readKey })).status, 429);
    // The key's own limit still applies on the settings routes.
    const own = await newKey(h, { limite_por_minuto: 1 });
    assert.equal((await h.client.get(config, { key: own.token })).status, 200);
    const second = await h.client.get(config, { key: own.token });
    assert.equal(second.status, 429);
    assert.equal(second.headers.get('ratelimit-policy'), '1;w=60;limite="clave"');
  });

  test('who may set which limits: ranges, read keys, limited keys, reach and revoked keys', async (t) => {
    const h = await host(t);
    const bad = await h.client.post('/tokens', { json: { nombre: 'x', limite_por_minuto: 0, cuota_diaria: 'mucho' } });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.detail.map((i: { loc: string[] }) => i.loc.join('.')).sort(), [
      'body.cuota_diaria',
      'body.limite_por_minuto',
    ]);
    const limited = await newKey(h, { limite_por_minuto: 5, cuota_diaria: 100 });
    // A limited key cannot mint a key with more, or without limits, nor lift its own.
    for (const body of [{}, { limite_por_minuto: 6, cuota_diaria: 100 }, { limite_por_minuto: 5 }]) {
      const res = await h.client.post('/tokens', { key: limited.token, json: { nombre: 'hija', ...body } });
      assert.equal(res.status, 403, JSON.stringify(body));
      assert.equal(res.body.codigo, 'key_scope_exceeded');
      assert.match(res.body.detail, /límites propios/);
    }
    const child = await newKey(h, { limite_por_minuto: 2, cuota_diaria: 100 }, limited.token);
    assert.equal(child.limite_por_minuto, 2);
    const lift = await h.client.patch(`/tokens/${limited.id}`, {
      key: limited.token,
      json: { limite_por_minuto: null },
    });
    assert.equal(lift.status, 403);
    const lower = await h.client.patch(`/tokens/${limited.id}`, { key: limited.token, json: { limite_por_minuto: 4 } });
    assert.deepEqual([lower.status, lower.body.limite_por_minuto, lower.body.cuota_diaria], [200, 4, 100]);
    // Read keys change nothing; unknown, foreign and revoked keys as for revoking.
    assert.equal(
      (await h.client.patch(`/tokens/${child.id}`, { key: h.readKey, json: { cuota_diaria: 1 } })).status,
      403,
    );
    assert.equal((await h.client.patch('/tokens/0123456789abcdef', { json: { cuota_diaria: 1 } })).status, 404);
    const other = await h.admin.createOwner({ name: 'Otro' });
    const foreign = await h.admin.issueKey(other.id, 'ajena', [], 'escribe');
    assert.equal((await h.client.patch(`/tokens/${foreign.id}`, { json: { cuota_diaria: 1 } })).status, 404);
    assert.equal((await h.client.delete(`/tokens/${child.id}`)).status, 200);
    const revoked = await h.client.patch(`/tokens/${child.id}`, { json: { cuota_diaria: 1 } });
    assert.equal(revoked.status, 409);
    const unknownField = await h.client.patch(`/tokens/${limited.id}`, { json: { permiso: 'lee' } });
    assert.equal(unknownField.status, 422);
  });
});
