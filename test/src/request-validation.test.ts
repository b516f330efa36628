// Request validation over HTTP (issue #16, defects 1 and 2): bodies checked against each route's JSON Schema,
// query parameters against its query schema, before credits and before the handler; no body key reaches a prototype.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definePlugin, HostServices } from '@cerebro/sdk';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { echoPlugin } from './support/plugins.js';

/** Names that live on Object.prototype: each once broke a plain-object lookup (500) or was stored as a field. */
const PROTOTYPE_NAMES = [
  '__proto__',
  'valueOf',
  'hasOwnProperty',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  'isPrototypeOf',
  'toString',
  'constructor',
];

/** A JSON object text with one field `name` (written by hand: `__proto__` would not survive an object literal). */
const oneField = (name: string, value: unknown) => `{${JSON.stringify(name)}: ${JSON.stringify(value)}}`;

const patchRaw = (h: TestHost, path: string, body: string) =>
  h.client.patch(path, { body, headers: { 'content-type': 'application/json' } });

test('PATCH /rag/{espacio}/config: every prototype name is an unknown field (422 naming it) and nothing is stored', async (t) => {
  const h = await startTestHost(t);
  const url = `/rag/${h.spaceId}/config`;
  const before = (await h.client.get(url)).body;
  for (const name of PROTOTYPE_NAMES) {
    for (const value of [1, 'x'.repeat(900_000), { a: 1 }]) {
      const res = await patchRaw(h, url, oneField(name, value));
      assert.equal(res.status, 422, `${name}: ${res.text.slice(0, 200)}`);
      assert.deepEqual(res.body.detail, [{ loc: ['body', name], msg: 'Campo desconocido.', type: 'extra_forbidden' }]);
    }
  }
  const mixed = await patchRaw(h, url, '{"pasajes": 3, "toString": 1}');
  assert.deepEqual(
    [mixed.status, mixed.body.detail.map((d: { loc: unknown[] }) => d.loc)],
    [422, [['body', 'toString']]],
  );
  assert.deepEqual(
    (await h.client.get(url)).body,
    before,
    'a refused write changes nothing, not even its valid fields',
  );
  const ok = await h.client.patch(url, { json: { pasajes: 3 } });
  assert.deepEqual([ok.status, ok.body.pasajes], [200, 3]);
});

test('body type and range problems are one 422 list in Spanish, located under body', async (t) => {
  const h = await startTestHost(t);
  const res = await h.client.patch(`/rag/${h.spaceId}/config`, {
    json: { pasajes: 'tres', relevancia_minima: 2, longitud: 'enorme', idioma: 'español' },
  });
  assert.equal(res.status, 422);
  assert.deepEqual(res.body.detail, [
    { loc: ['body', 'pasajes'], msg: 'Debe ser un número entero.', type: 'int_type' },
    { loc: ['body', 'relevancia_minima'], msg: 'Debe ser menor o igual que 1.', type: 'less_than_equal' },
    { loc: ['body', 'longitud'], msg: 'Debe ser uno de: "corta", "media", "larga".', type: 'enum' },
    { loc: ['body', 'idioma'], msg: 'No tiene el formato esperado.', type: 'string_pattern_mismatch' },
  ]);
  const array = await h.client.patch(`/rag/${h.spaceId}/config`, { json: [1] });
  assert.deepEqual(
    [array.status, array.body.detail],
    [422, [{ loc: ['body'], msg: 'Debe ser un objeto JSON.', type: 'dict_type' }]],
  );
});

test('a question with an unknown field is refused before credits are reserved', async (t) => {
  const h = await startTestHost(t);
  const pool = async () => (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body;
  const before = await pool();
  const res = await h.client.post(`/rag/${h.spaceId}/conversations`, {
    json: { pregunta: '¿Qué horario hay?', valueOf: 1 },
  });
  assert.deepEqual(
    [res.status, res.body.detail],
    [422, [{ loc: ['body', 'valueOf'], msg: 'Campo desconocido.', type: 'extra_forbidden' }]],
  );
  const missing = await h.client.post(`/rag/${h.spaceId}/conversations`, { json: {} });
  assert.deepEqual(missing.body.detail, [{ loc: ['body', 'pregunta'], msg: 'Campo obligatorio.', type: 'missing' }]);
  assert.deepEqual(await pool(), before, 'no movement: nothing reserved, nothing refunded');
});

test('a plugin route declaring a body schema gets it enforced by the host: no credits taken, handler never called', async (t) => {
  let calls = 0;
  const paid = echoPlugin(
    {
      routes: [
        { id: 'leer', method: 'GET', path: '/eco', permission: 'lee', summary: 'gratis' },
        {
          id: 'escribir',
          method: 'POST',
          path: '/eco',
          permission: 'escribe',
          summary: 'de pago',
          credits: 4,
          requestSchema: {
            type: 'object',
            required: ['n'],
            properties: { n: { type: 'integer', minimum: 0 } },
            additionalProperties: false,
          },
        },
      ],
    },
    {
      leer: () => ({}),
      escribir: (req) => {
        calls++;
        return { recibido: req.body };
      },
    },
  );
  const h = await startTestHost(t, { plugins: [paid], credits: 10 });
  const url = `/mod/eco/${h.spaceId}/eco`;
  for (const body of ['{"n": -1}', '{"n": 1, "__proto__": {"admin": true}}', '{"n": "1"}', '{}', '[]', 'null']) {
    const res = await h.client.post(url, { body, headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 422, body);
  }
  const noBody = await h.client.post(url);
  assert.deepEqual(
    [noBody.status, noBody.body.detail],
    [422, [{ loc: ['body'], msg: 'Debe ser un objeto JSON.', type: 'dict_type' }]],
  );
  assert.equal(calls, 0);
  assert.equal(
    (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.saldo,
    10,
    'nothing reserved, nothing refunded',
  );
  const ok = await h.client.post(url, { json: { n: 2 } });
  assert.deepEqual([ok.status, ok.body, calls], [200, { recibido: { n: 2 } }, 1]);
});

test('a JSON key __proto__ is an own field of the parsed body, never its prototype', async (t) => {
  const h = await startTestHost(t, {
    plugins: [
      echoPlugin(
        {},
        {
          leer: () => ({}),
          escribir: (req) => ({
            prototipo_normal: Object.getPrototypeOf(req.body) === Object.prototype,
            propio: Object.hasOwn(req.body as object, '__proto__'),
            heredado: (req.body as { admin?: unknown }).admin ?? null,
          }),
        },
      ),
    ],
  });
  const res = await h.client.post(`/mod/eco/${h.spaceId}/eco`, {
    body: '{"__proto__": {"admin": true}}',
    headers: { 'content-type': 'application/json' },
  });
  assert.deepEqual([res.status, res.body], [200, { prototipo_normal: true, propio: true, heredado: null }]);
});

test('?desde and ?limite of the documents list: integers in range or 422 naming the parameter', async (t) => {
  const h = await startTestHost(t);
  const url = `/rag/${h.spaceId}/documents`;
  for (const [query, name] of [
    ['desde=1e20', 'desde'],
    ['desde=-1', 'desde'],
    ['desde=1.5', 'desde'],
    ['desde=', 'desde'],
    ['limite=abc', 'limite'],
    ['limite=0', 'limite'],
    ['limite=201', 'limite'],
    ['limite=1&limite=2', 'limite'],
  ]) {
    const res = await h.client.get(`${url}?${query}`);
    assert.equal(res.status, 422, query);
    assert.deepEqual(
      res.body.detail.map((d: { loc: unknown[] }) => d.loc),
      [['query', name]],
      query,
    );
  }
  const page = await h.client.get(`${url}?limite=5&desde=9007199254740991`);
  assert.deepEqual(
    [page.status, page.body.limite, page.body.desde, page.body.documentos],
    [200, 5, 9007199254740991, []],
  );
  const defaults = await h.client.get(`${url}?otro=1`);
  assert.deepEqual(
    [defaults.status, defaults.body.limite, defaults.body.desde],
    [200, 50, 0],
    'undeclared parameters are ignored',
  );
});

test('?movimientos of the credit pool is validated instead of silently falling back', async (t) => {
  const h = await startTestHost(t);
  const url = `/cuentas/${h.accountId}/bolsa`;
  for (const value of ['abc', '0', '101', '2.5']) {
    const res = await h.client.get(`${url}?movimientos=${value}`);
    assert.equal(res.status, 422, value);
    assert.deepEqual(
      res.body.detail.map((d: { loc: unknown[] }) => d.loc),
      [['query', 'movimientos']],
    );
  }
  await h.admin.addCredits(h.accountId, 5);
  await h.admin.addCredits(h.accountId, 6);
  assert.equal((await h.client.get(`${url}?movimientos=1`)).body.movimientos.length, 1);
  assert.ok((await h.client.get(url)).body.movimientos.length >= 2, 'default 20');
});

test('?antes pages back through the whole credit history, one page after another', async (t) => {
  const h = await startTestHost(t, { credits: 0 });
  const url = `/cuentas/${h.accountId}/bolsa`;
  for (const n of [1, 2, 3, 4, 5]) await h.admin.addCredits(h.accountId, n);
  const seen: number[] = [];
  let before: number | undefined;
  for (;;) {
    const page = await h.client.get(`${url}?movimientos=2${before ? `&antes=${before}` : ''}`);
    assert.equal(page.status, 200);
    if (page.body.movimientos.length === 0) break;
    for (const m of page.body.movimientos) seen.push(m.delta);
    before = page.body.movimientos.at(-1).id;
  }
  assert.deepEqual(seen.slice(0, 5), [5, 4, 3, 2, 1], 'newest first, each once');
  assert.equal(
    seen.reduce((a, b) => a + b, 0),
    (await h.client.get(url)).body.saldo,
    'the whole history adds up to the balance',
  );
  for (const value of ['0', 'x', '-3']) {
    const res = await h.client.get(`${url}?antes=${value}`);
    assert.deepEqual([res.status, res.body.detail[0].loc], [422, ['query', 'antes']], value);
  }
});

test('api-config and tokens refuse unknown fields; platform fields keep their 403', async (t) => {
  const h = await startTestHost(t);
  const url = `/companies/${h.spaceId}/api-config`;
  const before = (await h.client.get(url)).body;
  const unknown = await patchRaw(h, url, oneField('__proto__', { api_activa: false }));
  assert.deepEqual(
    [unknown.status, unknown.body.detail],
    [422, [{ loc: ['body', '__proto__'], msg: 'Campo desconocido.', type: 'extra_forbidden' }]],
  );
  const platform = await h.client.patch(url, { json: { modulos: ['ventas'] } });
  assert.equal(platform.status, 403);
  assert.match(platform.body.detail, /modulos/);
  assert.deepEqual((await h.client.get(url)).body, before);

  const token = await h.client.post('/tokens', { json: { nombre: 'x', isPrototypeOf: 'y' } });
  assert.deepEqual(
    [token.status, token.body.detail],
    [422, [{ loc: ['body', 'isPrototypeOf'], msg: 'Campo desconocido.', type: 'extra_forbidden' }]],
  );
  assert.equal(
    (await h.client.get('/tokens')).body.tokens.some((k: { nombre: string }) => k.nombre === 'x'),
    false,
  );
});

test("the OpenAPI document lists each route's query parameters with their schema", async (t) => {
  const h = await startTestHost(t);
  const doc = (await h.client.get('/openapi.json', { key: null })).body;
  const params = doc.paths['/rag/{espacio}/documents'].get.parameters;
  assert.deepEqual(
    params.find((p: { name: string }) => p.name === 'desde'),
    {
      name: 'desde',
      in: 'query',
      required: false,
      description: 'Elementos que se saltan desde el principio.',
      schema: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 },
    },
  );
  assert.equal(
    doc.paths['/cuentas/{cuenta}/bolsa'].get.parameters.find((p: { name: string }) => p.name === 'movimientos').schema
      .maximum,
    100,
  );
});

test('multipart form fields named after Object.prototype members are fields of an object without prototype', async (t) => {
  const form = definePlugin({
    manifest: {
      id: 'formulario',
      version: '1.0.0',
      sdk: '^1.0.0',
      title: 'Formulario',
      needs: [HostServices.Uploads],
      routes: [
        {
          id: 'enviar',
          method: 'POST',
          path: '/enviar',
          permission: 'escribe',
          body: 'multipart',
          summary: 'Recibe un formulario',
        },
      ],
    },
    setup: (scope) => {
      const uploads = scope.resolve(HostServices.Uploads);
      return {
        handlers: {
          enviar: async (req) => {
            const received = await uploads.receive(req.raw, { maxFileBytes: 1024, maxFiles: 1 });
            await received.cleanup();
            return {
              sin_prototipo: Object.getPrototypeOf(received.fields) === null,
              campos: Object.entries(received.fields),
            };
          },
        },
      };
    },
  });
  const h = await startTestHost(t, { plugins: [form] });
  const body = new FormData();
  for (const name of ['__proto__', 'toString', 'idioma']) body.append(name, `valor de ${name}`);
  const res = await h.client.post(`/mod/formulario/${h.spaceId}/enviar`, { body });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, {
    sin_prototipo: true,
    campos: [
      ['__proto__', 'valor de __proto__'],
      ['toString', 'valor de toString'],
      ['idioma', 'valor de idioma'],
    ],
  });
});

test('names refuse control characters: a key, a space, an owner (422 naming the field), and nothing is stored', async (t) => {
  const h = await startTestHost(t);
  const before = (await h.client.get('/tokens')).body.tokens.length;
  for (const nombre of ['a\u0000b', 'dos\nlíneas', 'tab\there', 'del\u007f']) {
    const key = await h.client.post('/tokens', { json: { nombre } });
    assert.equal(key.status, 422, key.text);
    assert.deepEqual(key.body.detail, [
      {
        loc: ['body', 'nombre'],
        msg: 'No puede contener caracteres de control (saltos de línea, tabuladores, NUL…).',
        type: 'string_pattern_mismatch',
      },
    ]);
  }
  assert.equal((await h.client.get('/tokens')).body.tokens.length, before);
  const renamed = await h.client.patch(`/companies/${h.spaceId}`, { json: { nombre: 'Tienda\r\nX-Falsa: 1' } });
  assert.equal(renamed.status, 422, renamed.text);
  assert.deepEqual(renamed.body.detail[0].loc, ['body', 'nombre']);
  const accents = await h.client.post('/tokens', { json: { nombre: 'Integración «web» — señales 👍' } });
  assert.equal(accents.status, 201, 'every printable character, accents, quotes and emoji included, stays allowed');
});
