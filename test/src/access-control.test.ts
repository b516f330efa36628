import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { echoPlugin } from './support/plugins.js';

const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

async function host(t: { after(fn: () => unknown): void }): Promise<TestHost> {
  return startTestHost(t, { plugins: [echoPlugin()] });
}
const eco = (h: TestHost, space = h.spaceId) => `/mod/eco/${space}/eco`;

describe('reach (contract section 5)', () => {
  test('a key with an empty espacios list reaches a space the owner creates after the key', async (t) => {
    const h = await host(t);
    assert.equal((await h.client.get(eco(h, 'nuevo'))).status, 403);
    await h.admin.createSpace({ id: 'nuevo', ownerId: h.ownerId, modules: ['eco'] });
    assert.equal((await h.client.get(eco(h, 'nuevo'))).status, 200);
    const companies = await h.client.get('/companies');
    assert.deepEqual(
      companies.body.espacios.map((s: { id: string }) => s.id),
      ['nuevo', 'pruebas'],
    );
    assert.deepEqual(companies.body.espacios[1].modulos, ['api', 'eco']);
  });

  test('a key limited to some spaces reaches only those', async (t) => {
    const h = await host(t);
    await h.admin.createSpace({ id: 'otro', ownerId: h.ownerId, modules: ['eco'] });
    const limited = (await h.admin.issueKey(h.ownerId, 'limitada', ['otro'], 'escribe')).token;
    const res = await h.client.get(eco(h), { key: limited });
    assert.deepEqual(
      [res.status, res.body],
      [403, { detail: 'Sin acceso a este espacio.', codigo: 'space_not_reachable' }],
    );
    assert.equal((await h.client.get(eco(h, 'otro'), { key: limited })).status, 200);
    assert.deepEqual(
      (await h.client.get('/companies', { key: limited })).body.espacios.map((s: { id: string }) => s.id),
      ['otro'],
    );
  });

  test('GET /companies follows every change at once, for each key and for a session (its reads are memoised)', async (t) => {
    const h = await host(t);
    const limited = (await h.admin.issueKey(h.ownerId, 'limitada', [h.spaceId], 'lee')).token;
    const session = (await h.admin.issueConsoleSession(h.ownerId)).token;
    const ids = async (key?: string) =>
      (await h.client.get('/companies', key ? { key } : {})).body.espacios.map((s: { id: string }) => s.id);
    // Twice each: the second answer comes from the memoised directory.
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(await ids(), [h.spaceId]);
      assert.deepEqual(await ids(limited), [h.spaceId]);
      assert.deepEqual(await ids(session), [h.spaceId]);
    }
    await h.admin.createSpace({ id: 'nuevo', ownerId: h.ownerId, modules: ['eco'] });
    assert.deepEqual(await ids(), ['nuevo', h.spaceId]);
    assert.deepEqual(await ids(limited), [h.spaceId]);
    assert.deepEqual(await ids(session), ['nuevo', h.spaceId]);
    await h.admin.assignSpace(h.spaceId, null);
    assert.deepEqual(await ids(), ['nuevo']);
    assert.deepEqual(await ids(limited), []);
    assert.deepEqual(await ids(session), ['nuevo']);
  });

  test('a space removed from the owner answers 403 on the very next call', async (t) => {
    const h = await host(t);
    assert.equal((await h.client.get(eco(h))).status, 200);
    await h.admin.assignSpace(h.spaceId, null);
    const res = await h.client.get(eco(h));
    assert.deepEqual(
      [res.status, res.body],
      [403, { detail: 'Sin acceso a este espacio.', codigo: 'space_not_reachable' }],
    );
  });
});

describe('when a key stops working', () => {
  test('revocation answers {revocado} and the key gets 401 from the next request; a second revoke is 409', async (t) => {
    const h = await host(t);
    const victim = await h.admin.issueKey(h.ownerId, 'temporal', [], 'lee');
    assert.equal((await h.client.get(eco(h), { key: victim.token })).status, 200);
    const revoked = await h.client.delete(`/tokens/${victim.id}`);
    assert.deepEqual([revoked.status, revoked.body], [200, { revocado: victim.id }]);
    assert.equal((await h.client.get(eco(h), { key: victim.token })).status, 401);
    const again = await h.client.delete(`/tokens/${victim.id}`);
    assert.deepEqual(
      [again.status, again.body],
      [409, { detail: 'La credencial ya estaba revocada.', codigo: 'key_already_revoked' }],
    );
    const listed = (await h.client.get('/tokens')).body.tokens.find((k: { id: string }) => k.id === victim.id);
    assert.equal(listed.revocado, true);
  });

  test("revoking an unknown key or another owner's key answers 404 Credencial no encontrada.", async (t) => {
    const h = await host(t);
    const other = await h.admin.createOwner({ name: 'Otro' });
    const foreign = await h.admin.issueKey(other.id, 'ajena', [], 'escribe');
    for (const id of [foreign.id, '0123456789abcdef', 'no-es-un-id']) {
      const res = await h.client.delete(`/tokens/${id}`);
      assert.deepEqual([res.status, res.body], [404, { detail: 'Credencial no encontrada.', codigo: 'key_not_found' }]);
    }
    assert.equal((await h.client.get('/companies', { key: foreign.token })).status, 200);
  });

  test("a deleted owner's keys answer 401", async (t) => {
    const h = await host(t);
    await h.admin.deleteOwner(h.ownerId);
    assert.equal((await h.client.get(eco(h))).status, 401);
    assert.equal((await h.client.get('/companies')).status, 401);
  });

  test('an expired trial answers 403; a running one does not', async (t) => {
    const h = await host(t);
    await h.admin.setTrialEnd(h.spaceId, new Date(Date.now() + DAY).toISOString());
    assert.equal((await h.client.get(eco(h))).status, 200);
    await h.admin.setTrialEnd(h.spaceId, ago(1000));
    const res = await h.client.get(eco(h));
    assert.equal(res.status, 403);
    assert.match(res.body.detail, /prueba/);
  });

  test('402 at 8 days unpaid and when suspended, not at 6 days; the key stays valid once paid', async (t) => {
    const h = await host(t);
    await h.admin.setPayment(h.accountId, { unpaidSince: ago(6 * DAY) });
    assert.equal((await h.client.get(eco(h))).status, 200);
    await h.admin.setPayment(h.accountId, { unpaidSince: ago(8 * DAY) });
    assert.equal((await h.client.get(eco(h))).status, 402);
    assert.equal((await h.client.get(`/cuentas/${h.accountId}/bolsa`)).status, 402);
    await h.admin.setPayment(h.accountId, { suspended: true });
    assert.equal((await h.client.get(eco(h))).status, 402);
    await h.admin.setPayment(h.accountId, {});
    assert.equal((await h.client.get(eco(h))).status, 200);
  });

  test('API switched off answers 403 to keys only; console sessions keep working', async (t) => {
    const h = await host(t);
    const session = (await h.admin.issueConsoleSession(h.ownerId)).token;
    const off = await h.client.patch(`/companies/${h.spaceId}/api-config`, { json: { api_activa: false } });
    assert.deepEqual([off.status, off.body.api_activa], [200, false]);
    const res = await h.client.get(eco(h));
    assert.equal(res.status, 403);
    assert.match(res.body.detail, /API está desactivada/);
    assert.equal((await h.client.get(eco(h), { key: session })).status, 200);
    const on = await h.client.patch(`/companies/${h.spaceId}/api-config`, { key: session, json: { api_activa: true } });
    assert.equal(on.body.api_activa, true);
    assert.equal((await h.client.get(eco(h))).status, 200);
  });

  test('the IP list is honoured for keys (CIDR, IPv4-mapped) and ignored for console sessions', async (t) => {
    const h = await host(t);
    const session = (await h.admin.issueConsoleSession(h.ownerId)).token;
    await h.client.patch(`/companies/${h.spaceId}/api-config`, {
      json: { ips_permitidas: ['10.0.0.0/8', '2001:db8::/32'] },
    });
    const res = await h.client.get(eco(h));
    assert.equal(res.status, 403);
    assert.match(res.body.detail, /IP/);
    assert.equal((await h.client.get(eco(h), { key: session })).status, 200);
    await h.client.patch(`/companies/${h.spaceId}/api-config`, {
      key: session,
      json: { ips_permitidas: ['127.0.0.0/8'] },
    });
    assert.equal((await h.client.get(eco(h))).status, 200);
  });
});

describe('permissions', () => {
  test('the effective permission is the stricter of the key and the owner', async (t) => {
    const h = await host(t);
    assert.equal((await h.client.post(eco(h), { json: {} })).status, 200);
    await h.admin.setOwnerReadOnlyOnSpace(h.spaceId, true);
    const res = await h.client.post(eco(h), { json: {} });
    assert.deepEqual(
      [res.status, res.body],
      [403, { detail: 'Tu cuenta es de solo lectura en este espacio.', codigo: 'read_only' }],
    );
    assert.equal((await h.client.get(eco(h))).body.permiso, 'lee');
    await h.admin.setOwnerReadOnlyOnSpace(h.spaceId, false);
    await h.admin.setOwnerReadOnly(h.ownerId, true);
    assert.equal((await h.client.post(eco(h), { json: {} })).status, 403);
  });

  test('a read key is refused on every write route of the host and of every installed plugin', async (t) => {
    const h = await startTestHost(t, { plugins: [echoPlugin()], discover: true });
    const doc = (await h.client.get('/openapi.json', { key: null })).body;
    const writes: string[] = [];
    const studioOnly: string[] = [];
    for (const [path, methods] of Object.entries<
      Record<string, { 'x-cerebro-permiso'?: string; 'x-cerebro-access': string; 'x-cerebro-solo-studio'?: true }>
    >(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (op['x-cerebro-access'] !== 'space' || op['x-cerebro-permiso'] !== 'escribe') continue;
        const url = path.replace('{espacio}', h.spaceId).replace(/\{[^}]+\}/g, 'x');
        const res = await h.client.request(method.toUpperCase(), url, { key: h.readKey, json: {} });
        // The OpenAI-compatible routes add OpenAI's `error` beside the catalogue's body: the catalogue's part is checked.
        const { detail, codigo } = res.body;
        // A Studio-only route (a space's members) refuses every key, a write key too, before any permission.
        if (op['x-cerebro-solo-studio']) {
          assert.deepEqual([res.status, codigo], [403, 'console_only'], `${method} ${path}`);
          studioOnly.push(`${method} ${path}`);
          continue;
        }
        assert.deepEqual(
          [res.status, { detail, codigo }],
          [403, { detail: 'Tu cuenta es de solo lectura en este espacio.', codigo: 'read_only' }],
          `${method} ${path}`,
        );
        writes.push(`${method} ${path}`);
      }
    }
    assert.ok(writes.includes('patch /companies/{espacio}/api-config'));
    assert.ok(writes.includes('post /mod/eco/{espacio}/eco'));
    assert.ok(studioOnly.includes('post /companies/{espacio}/miembros'));
    assert.equal((await h.client.delete('/tokens/0123456789abcdef', { key: h.readKey })).status, 403);
    assert.equal(
      (await h.client.post('/tokens', { key: h.readKey, json: { nombre: 'x', permiso: 'escribe' } })).status,
      403,
    );
  });

  test('tampered, truncated and wrong-prefix keys all answer 401 with the same body', async (t) => {
    const h = await host(t);
    const key = h.writeKey;
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    const variants = [
      key.slice(0, -1) + last, // tampered secret (last character)
      `${key.slice(0, 22)}${key[22] === 'A' ? 'B' : 'A'}${key.slice(23)}`, // tampered secret (first character)
      key.slice(0, -5), // truncated
      key.replace(/^crb_/, 'crx_'), // wrong prefix
      key.replace(/^crb_/, 'crs_'), // right shape, other credential kind
      key.replace(/_[0-9a-f]{3}/, '_fff'), // other id
    ];
    const bodies = new Set<string>();
    for (const variant of variants) {
      const res = await h.client.get('/companies', { key: variant });
      assert.equal(res.status, 401, variant);
      bodies.add(res.text);
    }
    assert.equal(bodies.size, 1);
  });

  test('a service key is never an administrator: admin routes answer 403 to keys and sessions', async (t) => {
    const h = await host(t);
    const session = (await h.admin.issueConsoleSession(h.ownerId)).token;
    const operator = (await h.admin.issueOperatorCredential('ops')).token;
    for (const key of [h.writeKey, session]) {
      const res = await h.client.post('/admin/propietarios', { key, json: { nombre: 'X' } });
      assert.equal(res.status, 403);
    }
    const created = await h.client.post('/admin/propietarios', {
      key: operator,
      json: { nombre: 'Nuevo', creditos: 5 },
    });
    assert.equal(created.status, 201);
    assert.equal((await h.client.get('/companies', { key: operator })).status, 403);
    const field = await h.client.patch(`/companies/${h.spaceId}/api-config`, { json: { modulos: ['landing'] } });
    assert.equal(field.status, 403);
    assert.match(field.body.detail, /modulos/);
  });
});

describe('key management (contract 4.B)', () => {
  test('POST /tokens answers 201 {token} with the full key once; GET /tokens never shows a secret', async (t) => {
    const h = await host(t);
    const res = await h.client.post('/tokens', { json: { nombre: 'integración tienda', espacios: [h.spaceId] } });
    assert.equal(res.status, 201);
    const record = res.body.token;
    assert.match(record.id, /^[0-9a-f]{16}$/);
    assert.match(record.token, new RegExp(`^crb_${record.id}\\.[A-Za-z0-9_-]{43}$`));
    assert.deepEqual([record.nombre, record.espacios, record.permiso], ['integración tienda', [h.spaceId], 'escribe']);
    assert.ok(!Number.isNaN(Date.parse(record.creado)) && record.creado.endsWith('Z'));
    assert.equal((await h.client.get(eco(h), { key: record.token })).status, 200);

    const list = await h.client.get('/tokens');
    assert.equal(list.status, 200);
    const listed = list.body.tokens.find((k: { id: string }) => k.id === record.id);
    assert.deepEqual(Object.keys(listed).sort(), [
      'creado',
      'cuota_diaria',
      'espacios',
      'id',
      'limite_por_minuto',
      'llamadas',
      'nombre',
      'permiso',
      'por_ruta',
      'revocado',
      'ultimo_uso',
    ]);
    assert.equal(listed.llamadas, 1);
    assert.deepEqual(listed.por_ruta, { 'GET /mod/eco/:espacio/eco': 1 });
    assert.ok(!list.text.includes(record.token.split('.')[1]));
  });

  test('nombre must have 1 to 80 characters; permiso lee or escribe', async (t) => {
    const h = await host(t);
    for (const body of [
      {},
      { nombre: '' },
      { nombre: 'x'.repeat(81) },
      { nombre: 'ok', permiso: 'admin' },
      { nombre: 'ok', espacios: 'todos' },
    ]) {
      const res = await h.client.post('/tokens', { json: body });
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.ok(Array.isArray(res.body.detail));
    }
    assert.equal((await h.client.post('/tokens', { json: { nombre: 'ñ'.repeat(80) } })).status, 201);
  });

  test("403 for spaces that are not the caller's, or when none has the api module", async (t) => {
    const h = await host(t);
    const other = await h.admin.createOwner({ name: 'Otro' });
    await h.admin.createSpace({ id: 'ajeno', ownerId: other.id, modules: ['api'] });
    assert.equal((await h.client.post('/tokens', { json: { nombre: 'x', espacios: ['ajeno'] } })).status, 403);
    await h.admin.createSpace({ id: 'sin-api', ownerId: h.ownerId, modules: [] });
    const res = await h.client.post('/tokens', { json: { nombre: 'x', espacios: ['sin-api'] } });
    assert.deepEqual([res.status, res.body.detail], [403, 'Ninguno de los espacios tiene el módulo API.']);
  });

  test('permiso defaults to escribe, and is lee when the owner is read-only', async (t) => {
    const h = await host(t);
    assert.equal((await h.client.post('/tokens', { json: { nombre: 'a' } })).body.token.permiso, 'escribe');
    await h.admin.setOwnerReadOnly(h.ownerId, true);
    assert.equal((await h.client.post('/tokens', { json: { nombre: 'b' } })).body.token.permiso, 'lee');
  });

  test('a key never creates a key that reaches further or allows more than itself', async (t) => {
    const h = await host(t);
    await h.admin.createSpace({ id: 'otro', ownerId: h.ownerId, modules: ['api'] });
    const limited = (await h.admin.issueKey(h.ownerId, 'limitada', [h.spaceId], 'escribe')).token;
    assert.equal((await h.client.post('/tokens', { key: limited, json: { nombre: 'x' } })).status, 403);
    assert.equal(
      (await h.client.post('/tokens', { key: limited, json: { nombre: 'x', espacios: ['otro'] } })).status,
      403,
    );
    assert.equal(
      (await h.client.post('/tokens', { key: limited, json: { nombre: 'x', espacios: [h.spaceId] } })).status,
      201,
    );
    const reader = await h.client.post('/tokens', { key: h.readKey, json: { nombre: 'x' } });
    assert.deepEqual([reader.status, reader.body.token.permiso], [201, 'lee']);
  });
});

describe('limits and credits', () => {
  test('over the per-minute limit a key gets 429 with Retry-After and RateLimit headers', async (t) => {
    const h = await host(t);
    await h.client.patch(`/companies/${h.spaceId}/api-config`, { json: { limite_por_minuto: 3 } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await h.client.get(eco(h))).status);
    // The PATCH of the space's own settings is never refused by its limit, nor counted in its minute window.
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    const res = await h.client.get(eco(h));
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers.get('retry-after')) >= 1);
    assert.equal(res.headers.get('ratelimit-limit'), '3');
    assert.equal(res.headers.get('ratelimit-remaining'), '0');
    assert.match(res.body.detail, /3 por minuto/);
    const session = (await h.admin.issueConsoleSession(h.ownerId)).token;
    assert.equal((await h.client.get(eco(h), { key: session })).status, 200);
  });

  test('the API config is validated and returned as stored', async (t) => {
    const h = await host(t);
    const bad = await h.client.patch(`/companies/${h.spaceId}/api-config`, {
      json: { limite_por_minuto: 0, ips_permitidas: ['300.1.1.1', '10.0.0.0/40'], otro: 1 },
    });
    assert.equal(bad.status, 422);
    // Shape first (the route's schema: ranges, unknown fields), then what only the IP parser knows.
    assert.deepEqual(
      bad.body.detail.map((d: { loc: unknown[] }) => d.loc.join('.')),
      ['body.limite_por_minuto', 'body.otro'],
    );
    const badIps = await h.client.patch(`/companies/${h.spaceId}/api-config`, {
      json: { ips_permitidas: ['300.1.1.1', '10.0.0.0/40'] },
    });
    assert.deepEqual(
      badIps.body.detail.map((d: { loc: unknown[] }) => d.loc.join('.')),
      ['body.ips_permitidas.0', 'body.ips_permitidas.1'],
    );
    const ok = await h.client.patch(`/companies/${h.spaceId}/api-config`, {
      json: { cuota_diaria: 1000, ips_permitidas: ['127.0.0.1', '::1'] },
    });
    assert.deepEqual(ok.body, {
      api_activa: true,
      limite_por_minuto: 600,
      cuota_diaria: 1000,
      ips_permitidas: ['127.0.0.1', '::1'],
    });
    assert.deepEqual((await h.client.get(`/companies/${h.spaceId}/api-config`)).body, ok.body);
  });

  test('credits are debited by routes that deduct them, refunded when the handler fails, 402 when empty', async (t) => {
    let fail = false;
    const paid = echoPlugin(
      {
        routes: [
          { id: 'leer', method: 'GET', path: '/eco', permission: 'lee', summary: 'gratis' },
          { id: 'escribir', method: 'POST', path: '/eco', permission: 'escribe', summary: 'de pago', credits: 4 },
        ],
      },
      {
        leer: () => ({}),
        escribir: () => {
          if (fail) throw new Error('boom');
          return { ok: true };
        },
      },
    );
    const h = await startTestHost(t, { plugins: [paid], credits: 10 });
    assert.equal((await h.client.post(eco(h), { json: {} })).status, 200);
    fail = true;
    assert.equal((await h.client.post(eco(h), { json: {} })).status, 500);
    fail = false;
    assert.equal((await h.client.post(eco(h), { json: {} })).status, 200);
    const empty = await h.client.post(eco(h), { json: {} });
    assert.deepEqual(
      [empty.status, empty.body.detail],
      [402, 'La bolsa de créditos de la cuenta no tiene saldo suficiente.'],
    );
    const bolsa = await h.client.get(`/cuentas/${h.accountId}/bolsa`);
    assert.equal(bolsa.body.saldo, 2);
    assert.deepEqual(
      bolsa.body.movimientos.map((m: { motivo: string; delta: number }) => `${m.motivo}${m.delta}`),
      ['consumo-4', 'reembolso4', 'consumo-4', 'consumo-4', 'recarga10'],
    );
    assert.equal((await h.client.get(`/companies/${h.spaceId}/cuenta`)).body.cuenta.saldo, 2);
  });

  test('the credit pool of an account no reachable space uses answers 403', async (t) => {
    const h = await host(t);
    const other = await h.admin.createOwner({ name: 'Otro', credits: 50 });
    const res = await h.client.get(`/cuentas/${other.cuenta}/bolsa`);
    assert.equal(res.status, 403);
  });
});

describe('plugin pricing', () => {
  test('a plugin may lower the price of a request, never raise it above its manifest', async (t) => {
    const priced = echoPlugin({
      routes: [
        { id: 'leer', method: 'GET', path: '/eco', permission: 'lee', summary: 'gratis' },
        { id: 'escribir', method: 'POST', path: '/eco', permission: 'escribe', summary: 'de pago', credits: 4 },
      ],
    });
    const withPricing = {
      ...priced,
      setup: async (scope: Parameters<typeof priced.setup>[0]) => ({
        ...(await priced.setup(scope)),
        pricing: { escribir: (req: { body: unknown }) => (req.body as { precio: number }).precio },
      }),
    };
    const h = await startTestHost(t, { plugins: [withPricing], credits: 10 });
    const saldo = async () => (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.saldo;
    await h.client.post(eco(h), { json: { precio: 0 } });
    assert.equal(await saldo(), 10);
    await h.client.post(eco(h), { json: { precio: 1 } });
    assert.equal(await saldo(), 9);
    await h.client.post(eco(h), { json: { precio: 1000 } });
    assert.equal(await saldo(), 5, 'clamped to the 4 credits the manifest declares');
  });
});
