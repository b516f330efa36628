// A plugin route declared `public`: mounted under /api/pub/<id>/{espacio}, reached without a key (a key sent along is
// ignored), served only while the space has the module, counted per client address, body capped; and the manifest
// rules that keep such a route from writing, charging or taking uploads.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RouteDeclaration } from '@cerebro/sdk';
import { startTestHost } from '@cerebro/sdk/testing';
import { echoPlugin } from './support/plugins.js';
// biome-ignore lint/suspicious/noExplicitAny: answers of a test plugin, read field by field
const body = async (res: Response): Promise<any> => res.json();
import { startExpectingError } from './support/start-refusal.js';

const PUBLIC_ROUTES: RouteDeclaration[] = [
  { id: 'leer', method: 'GET', path: '/eco', permission: 'lee', summary: 'Eco privado' },
  { id: 'ver', method: 'GET', path: '/ver', permission: 'lee', summary: 'Eco público', public: { perMinute: 3 } },
  {
    id: 'firmar',
    method: 'POST',
    path: '/firmar',
    permission: 'lee',
    summary: 'Formulario público',
    public: { perMinute: 50 },
    body: 'form',
    maxBodyBytes: 200,
    requestSchema: {
      type: 'object',
      required: ['nombre'],
      additionalProperties: false,
      properties: { nombre: { type: 'string', minLength: 1, maxLength: 50 } },
    },
  },
];

const publicPlugin = () =>
  echoPlugin(
    { routes: PUBLIC_ROUTES },
    {
      leer: (req) => ({ espacio: req.space.id }),
      ver: (req) => ({ espacio: req.space.id, quien: req.caller.kind, permiso: req.caller.permission }),
      firmar: (req) => ({ recibido: req.body, quien: req.caller.kind }),
    },
  );

test('a public route answers without a key, ignores a key sent along, is counted per address, and stops with the module', async (t) => {
  const h = await startTestHost(t, { plugins: [publicPlugin()] });
  const url = `${h.url}/api/pub/eco/${h.spaceId}/ver`;
  const anonymous = await fetch(url);
  assert.equal(anonymous.status, 200);
  assert.deepEqual(await anonymous.json(), { espacio: h.spaceId, quien: 'visitor', permiso: 'lee' });
  const withKey = await fetch(url, { headers: { authorization: `Bearer ${h.writeKey}` } });
  assert.equal((await body(withKey)).quien, 'visitor', 'the key is never read');
  assert.equal((await fetch(url, { headers: { authorization: 'Bearer basura' } })).status, 200);

  // The private routes stay private; the public one is not mounted under /api/mod.
  assert.equal((await fetch(`${h.url}/api/mod/eco/${h.spaceId}/eco`)).status, 401);
  const notMounted = await h.client.get(`/mod/eco/${h.spaceId}/ver`);
  assert.ok(notMounted.status === 404 || notMounted.status === 405, `${notMounted.status}: ${notMounted.text}`);

  // Three a minute from this address (a minute that turns meanwhile only restarts the count).
  let limited: Response | undefined;
  for (let i = 0; i < 4 && !limited; i++) {
    const res = await fetch(url);
    if (res.status === 429) limited = res;
  }
  assert.ok(limited, 'the address was never limited');
  const refusal = await body(limited);
  assert.equal(refusal.codigo, 'rate_limited');
  assert.match(refusal.detail, /desde tu dirección: esta página admite 3 por minuto/);
  assert.match(limited.headers.get('ratelimit-policy') ?? '', /^3;w=60;limite="direccion"$/);

  // A space without the module, or no such space: the same 404 as an unknown page, whatever the reason.
  const form = (name: string) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `nombre=${encodeURIComponent(name)}`,
  });
  const signed = await fetch(`${h.url}/api/pub/eco/${h.spaceId}/firmar`, form('Ana'));
  assert.deepEqual(await signed.json(), { recibido: { nombre: 'Ana' }, quien: 'visitor' });
  const nowhere = await fetch(`${h.url}/api/pub/eco/no-existe/firmar`, form('Ana'));
  assert.equal(nowhere.status, 404);
  await h.admin.disableModule(h.spaceId, 'eco');
  const off = await fetch(`${h.url}/api/pub/eco/${h.spaceId}/firmar`, form('Ana'));
  assert.equal(off.status, 404);
  assert.deepEqual(await off.json(), await nowhere.json());
});

test('a public form body: urlencoded only (415), capped (413), a field twice is a 400, validated like JSON (422)', async (t) => {
  const h = await startTestHost(t, { plugins: [publicPlugin()] });
  const url = `${h.url}/api/pub/eco/${h.spaceId}/firmar`;
  const post = (body: string, type = 'application/x-www-form-urlencoded') =>
    fetch(url, { method: 'POST', headers: { 'content-type': type }, body });
  const json = await post('{"nombre":"Ana"}', 'application/json');
  assert.equal(json.status, 415);
  assert.equal((await body(json)).codigo, 'unsupported_media_type');
  const big = await post(`nombre=${'x'.repeat(300)}`);
  assert.equal(big.status, 413);
  assert.deepEqual(await big.json(), { detail: 'El cuerpo supera el máximo de 200 bytes.', codigo: 'body_too_large' });
  const twice = await post('nombre=Ana&nombre=Eva');
  assert.equal(twice.status, 400);
  assert.equal((await body(twice)).codigo, 'bad_request');
  const unknown = await post('nombre=Ana&__proto__=x');
  assert.equal(unknown.status, 422);
  const empty = await post('nombre=');
  assert.equal(empty.status, 422);
  assert.deepEqual((await body(empty)).detail[0].loc, ['body', 'nombre']);
  const utf8 = await post(`nombre=${encodeURIComponent('Begoña 🏃')}`);
  assert.deepEqual((await body(utf8)).recibido, { nombre: 'Begoña 🏃' });
});

test('the OpenAPI document shows a public route without security, with its per-address limit and form body', async (t) => {
  const h = await startTestHost(t, { plugins: [publicPlugin()] });
  const doc = (await h.client.get('/openapi.json', { key: null })).body;
  const ver = doc.paths['/pub/eco/{espacio}/ver'].get;
  assert.deepEqual(ver.security, []);
  assert.equal(ver['x-cerebro-access'], 'visitor');
  assert.equal(ver['x-cerebro-por-direccion-minuto'], 3);
  assert.ok(ver.responses['404'] && ver.responses['429']);
  assert.equal(ver.responses['401'], undefined);
  const firmar = doc.paths['/pub/eco/{espacio}/firmar'].post;
  assert.ok(firmar.requestBody.content['application/x-www-form-urlencoded']);
});

test('a public route may not write, charge, hold idempotency keys, take uploads or go uncounted; form bodies are for public routes only', async () => {
  const refused = async (route: Partial<RouteDeclaration>, message: RegExp) => {
    const err = await startExpectingError([
      echoPlugin(
        { routes: [{ id: 'ver', method: 'POST', path: '/ver', permission: 'lee', summary: 's', ...route }] },
        { ver: () => ({}) },
      ),
    ]);
    assert.equal(err.code, 'PLUGIN_MANIFEST_INVALID');
    assert.match(err.message, message);
  };
  await refused({ public: { perMinute: 5 }, permission: 'escribe' }, /una ruta pública declara permission "lee"/);
  await refused({ public: { perMinute: 5 }, credits: 1 }, /una ruta pública no puede costar créditos/);
  await refused({ public: { perMinute: 5 }, idempotent: true }, /una ruta pública no admite idempotent/);
  await refused({ public: { perMinute: 5 }, body: 'multipart' }, /una ruta pública no admite cuerpo multipart/);
  await refused({ public: { perMinute: 0 } }, /public\.perMinute debe ser un entero entre 1 y 600/);
  await refused({ public: { perMinute: 601 } }, /public\.perMinute debe ser un entero entre 1 y 600/);
  await refused({ body: 'form' }, /body "form" solo vale en rutas públicas/);
});
