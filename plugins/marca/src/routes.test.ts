import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import marca from './index.js';

const base = (spaceId: string) => `/mod/marca/${spaceId}`;

test('regla 12: a brand never configured returns the defaults, with name = the space id', async (t) => {
  const h = await startTestHost(t, { plugins: [marca] });
  const res = await h.client.get(`${base(h.spaceId)}/config`, { key: h.readKey });
  assert.equal(res.status, 200);
  assert.equal(res.body.name, h.spaceId);
  assert.deepEqual(Object.keys(res.body).sort(), ['activo', 'estilo', 'identidad', 'name', 'tacticas']);
  assert.equal(res.body.estilo.max_lineas, 6);
});

test('PATCH /config: a section sent replaces the stored one whole; what is not sent stays', async (t) => {
  const h = await startTestHost(t, { plugins: [marca] });
  const url = `${base(h.spaceId)}/config`;
  await h.client.patch(url, {
    json: { name: 'Sol Deportes', estilo: { tono: ['formal'], max_lineas: 3, emojis_permitidos: ['🙂'] } },
  });
  const second = await h.client.patch(url, {
    json: { estilo: { rasgos: ['experto'] }, identidad: { nombre_agente: 'Lucía', rol: 'asesora' } },
  });
  assert.equal(second.status, 200);
  assert.equal(second.body.name, 'Sol Deportes', 'name not sent: unchanged');
  assert.deepEqual(second.body.estilo.rasgos, ['experto']);
  assert.equal(second.body.estilo.max_lineas, 6, 'estilo sent again without max_lineas: back to the default');
  assert.deepEqual(second.body.estilo.emojis_permitidos, []);
  assert.deepEqual(second.body.identidad, { nombre_agente: 'Lucía', rol: 'asesora', linea: '' });
  assert.deepEqual((await h.client.get(url)).body, second.body);
});

test('PATCH /config with wrong types answers 422 naming each field, and stores nothing', async (t) => {
  const h = await startTestHost(t, { plugins: [marca] });
  const url = `${base(h.spaceId)}/config`;
  const before = (await h.client.get(url)).body;
  const res = await h.client.patch(url, {
    json: { activo: 'sí', estilo: { max_lineas: 'muchas', tono: ['gritón'] }, color: 'rojo' },
  });
  assert.equal(res.status, 422);
  const locs = res.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
  // Types and unknown fields are the host's schema check, all at once; the vocabulary of `tono` is the brand's own
  // check, which runs on a body of the right shape.
  assert.deepEqual(locs, ['body.activo', 'body.estilo.max_lineas', 'body.color']);
  const vocabulary = await h.client.patch(url, { json: { activo: true, estilo: { tono: ['gritón'] } } });
  assert.equal(vocabulary.status, 422);
  assert.deepEqual(
    vocabulary.body.detail.map((d: { loc: string[] }) => d.loc.join('.')),
    ['body.estilo.tono'],
  );
  assert.deepEqual((await h.client.get(url)).body, before);
});

test('PATCH /config: Object.prototype names are unknown fields at every level, never vocabulary nor stored', async (t) => {
  const h = await startTestHost(t, { plugins: [marca] });
  const url = `${base(h.spaceId)}/config`;
  const before = (await h.client.get(url)).body;
  const send = (body: string) => h.client.patch(url, { body, headers: { 'content-type': 'application/json' } });
  for (const name of ['__proto__', 'valueOf', 'toString', 'isPrototypeOf']) {
    const top = await send(`{${JSON.stringify(name)}: 1}`);
    assert.deepEqual([top.status, top.body.detail[0].loc], [422, ['body', name]]);
    const nested = await send(`{"estilo": {${JSON.stringify(name)}: 1}}`);
    assert.deepEqual([nested.status, nested.body.detail[0].loc], [422, ['body', 'estilo', name]]);
  }
  const inheritedWord = await h.client.patch(url, { json: { estilo: { tono: ['constructor'] } } });
  assert.deepEqual(
    [inheritedWord.status, inheritedWord.body.detail[0].loc],
    [422, ['body', 'estilo', 'tono']],
    "only the vocabulary's own words",
  );
  const combos = await send('{"tacticas": {"upsell_combos": {"__proto__": "Combo A"}}}');
  assert.equal(combos.status, 200);
  assert.deepEqual(
    Object.entries(combos.body.tacticas.upsell_combos),
    [['__proto__', 'Combo A']],
    'a key, not a prototype',
  );
  assert.notDeepEqual((await h.client.get(url)).body, before);
});

test('reglas 10 y 11: GET /persona starts with agent name, role and brand, and ends with the fixed rules', async (t) => {
  const h = await startTestHost(t, { plugins: [marca] });
  await h.client.patch(`${base(h.spaceId)}/config`, {
    json: {
      name: 'Sol Deportes',
      identidad: { nombre_agente: 'Lucía', rol: 'asesora de ventas', linea: 'ropa deportiva' },
    },
  });
  const { persona } = (await h.client.get(`${base(h.spaceId)}/persona`, { key: h.readKey })).body;
  assert.equal(persona.split('\n')[0], 'Eres Lucía, asesora de ventas de Sol Deportes, ropa deportiva.');
  assert.match(persona, /No inventes precios, totales, plazos, descuentos ni disponibilidad/);
  assert.match(persona, /No hables de procesos internos\..*No ofrezcas un asesor humano\.$/s);
});

test('regla 9: no brand route deducts credits, even from an empty pool', async (t) => {
  const h = await startTestHost(t, { plugins: [marca], credits: 0 });
  const url = base(h.spaceId);
  assert.equal((await h.client.get(`${url}/config`)).status, 200);
  assert.equal((await h.client.patch(`${url}/config`, { json: { activo: false } })).status, 200);
  assert.equal((await h.client.get(`${url}/persona`)).status, 200);
  assert.deepEqual((await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.movimientos, []);
  const doc = (await h.client.get('/openapi.json', { key: null })).body;
  for (const op of Object.values<Record<string, { 'x-cerebro-creditos': number }>>(doc.paths).flatMap((m) =>
    Object.values(m),
  )) {
    if ((op as { tags?: string[] }).tags?.includes('marca')) assert.equal(op['x-cerebro-creditos'], 0);
  }
});

test('a space without the module gets 403 with the contract text; a read key cannot PATCH', async (t) => {
  const h = await startTestHost(t, { plugins: [marca], modules: ['api'] });
  for (const path of ['/config', '/persona']) {
    const res = await h.client.get(`${base(h.spaceId)}${path}`);
    assert.deepEqual(
      [res.status, res.body],
      [403, { detail: 'módulo no habilitado para este espacio', codigo: 'module_disabled' }],
    );
  }
  await h.admin.enableModule(h.spaceId, 'marca');
  const res = await h.client.patch(`${base(h.spaceId)}/config`, { key: h.readKey, json: { activo: false } });
  assert.deepEqual(
    [res.status, res.body],
    [403, { detail: 'Tu cuenta es de solo lectura en este espacio.', codigo: 'read_only' }],
  );
});
