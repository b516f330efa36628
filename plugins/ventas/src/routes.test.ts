// The ventas routes over real HTTP: settings, catalog, CSV import, conversations, permissions and credits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { PRODUCTS, startShop, ventas } from './test-support.js';

test('leads-config: defaults, partial PATCH, 422 naming every bad field and storing nothing', async (t) => {
  const h = await startTestHost(t, { plugins: [ventas] });
  const url = `/mod/ventas/${h.spaceId}/leads-config`;
  const defaults = await h.client.get(url, { key: h.readKey });
  assert.deepEqual(defaults.body, {
    marca_activa: false,
    mensajes_entre_combos: 3,
    derivar_tras_fallos: 2,
    nombre_tienda: '',
  });

  const ok = await h.client.patch(url, { json: { marca_activa: true } });
  assert.deepEqual([ok.status, ok.body], [200, { ...defaults.body, marca_activa: true }]);

  const bad = await h.client.patch(url, {
    json: { marca_activa: 'sí', mensajes_entre_combos: -1, color: 'rojo', nombre_tienda: 'Tienda Sol' },
  });
  assert.equal(bad.status, 422);
  assert.deepEqual(
    bad.body.detail.map((d: { loc: string[] }) => d.loc),
    [
      ['body', 'marca_activa'],
      ['body', 'mensajes_entre_combos'],
      ['body', 'color'],
    ],
  );
  for (const d of bad.body.detail) assert.deepEqual(Object.keys(d).sort(), ['loc', 'msg', 'type']);
  assert.deepEqual((await h.client.get(url)).body, ok.body, 'a 422 stores nothing, not even the valid field');

  const readOnly = await h.client.patch(url, { key: h.readKey, json: { marca_activa: false } });
  assert.deepEqual(
    [readOnly.status, readOnly.body],
    [403, { detail: 'Tu cuenta es de solo lectura en este espacio.', codigo: 'read_only' }],
  );
});

test('leads-config: a field named after Object.prototype (or a huge one) is refused by name and never stored', async (t) => {
  const h = await startTestHost(t, { plugins: [ventas] });
  const url = `/mod/ventas/${h.spaceId}/leads-config`;
  const before = (await h.client.get(url)).body;
  for (const name of [
    '__proto__',
    'valueOf',
    'hasOwnProperty',
    'propertyIsEnumerable',
    'toLocaleString',
    '__defineGetter__',
    'isPrototypeOf',
    'toString',
  ]) {
    for (const value of [1, 'x'.repeat(900_000)]) {
      const res = await h.client.patch(url, {
        body: `{${JSON.stringify(name)}: ${JSON.stringify(value)}}`,
        headers: { 'content-type': 'application/json' },
      });
      assert.deepEqual(
        [res.status, res.body.detail],
        [422, [{ loc: ['body', name], msg: 'Campo desconocido.', type: 'extra_forbidden' }]],
        name,
      );
    }
  }
  assert.deepEqual((await h.client.get(url)).body, before);
});

test('paging and filters of the lists: ?desde=1e20, ?limite=abc and an unknown ?estado are 422 naming the parameter', async (t) => {
  const h = await startTestHost(t, { plugins: [ventas] });
  for (const [path, query, name] of [
    ['conversaciones', 'desde=1e20', 'desde'],
    ['conversaciones', 'limite=abc', 'limite'],
    ['conversaciones', 'limite=201', 'limite'],
    ['conversaciones', 'estado=cerrada', 'estado'],
    ['productos', 'desde=1e20', 'desde'],
    ['productos', 'limite=1001', 'limite'],
  ]) {
    const res = await h.client.get(`/mod/ventas/${h.spaceId}/${path}?${query}`);
    assert.equal(res.status, 422, `${path}?${query}`);
    assert.deepEqual(
      res.body.detail.map((d: { loc: unknown[] }) => d.loc),
      [['query', name]],
    );
  }
  const page = await h.client.get(`/mod/ventas/${h.spaceId}/conversaciones?estado=derivada&limite=10&desde=2`);
  assert.deepEqual([page.status, page.body.limite, page.body.desde, page.body.total], [200, 10, 2, 0]);
});

test('words a customer or a CSV may write, named after Object.prototype members, are plain words', async (t) => {
  const { h, ventas: base, chat } = await startShop(t, { leadsConfig: { marca_activa: false } });
  const c = chat();
  await c.say('quiero zapatillas');
  for (const message of ['envío a constructor', 'toString valueOf __proto__ hasOwnProperty', 'quiero constructor']) {
    const answer = (await c.say(message)).respuesta as string;
    assert.doesNotMatch(answer, /function|native code|\[object/i, message);
  }
  const csv = 'id;nombre;precio;moneda;stock;envio\ntermo;Termo;35000;COP;7;__proto__=8000|constructor=9000\n';
  assert.equal((await h.client.post(`${base}/productos/importar`, { json: { csv } })).status, 200);
  assert.deepEqual(
    (await h.client.get(`${base}/productos/termo`)).body.envio,
    JSON.parse('{"__proto__": 8000, "constructor": 9000}'),
  );
});

test('catalog: PUT creates (201) then replaces (200), GET lists and reads, DELETE removes; errors name fields', async (t) => {
  const h = await startTestHost(t, { plugins: [ventas] });
  const base = `/mod/ventas/${h.spaceId}/productos`;
  const { id: _id, ...body } = PRODUCTS[0];
  assert.equal((await h.client.put(`${base}/zap-run`, { json: body })).status, 201);
  const replaced = await h.client.put(`${base}/zap-run`, { json: { ...body, precio: 240000, envio: undefined } });
  assert.equal(replaced.status, 200);
  assert.deepEqual(replaced.body, {
    id: 'zap-run',
    nombre: 'Zapatillas Runner',
    descripcion: 'Zapatillas livianas para correr',
    precio: 240000,
    moneda: 'COP',
    stock: 3,
  });
  assert.deepEqual((await h.client.get(`${base}/zap-run`, { key: h.readKey })).body, replaced.body);
  for (const p of PRODUCTS.slice(1)) await h.client.put(`${base}/${p.id}`, { json: p });

  const page = await h.client.get(`${base}?limite=2&desde=1`, { key: h.readKey });
  assert.deepEqual([page.body.total, page.body.limite, page.body.desde], [5, 2, 1]);
  assert.deepEqual(
    page.body.productos.map((p: { id: string }) => p.id),
    ['cam-roja', 'cam-azul'],
    'insertion order',
  );
  assert.equal((await h.client.get(`${base}?limite=0`)).status, 422);

  // Types and ranges are refused by the host's schema check, all at once; what only the catalog knows (the id of the
  // path, currency codes, cents) comes after, also all at once.
  const bad = await h.client.put(`${base}/mal%20id`, {
    json: { nombre: '', precio: 'caro', moneda: 'pesos', stock: 1.5, envio: { Cali: -1 } },
  });
  assert.equal(bad.status, 422);
  const locs = bad.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
  assert.deepEqual(locs, ['body.nombre', 'body.precio', 'body.stock', 'body.envio.Cali']);
  const badDomain = await h.client.put(`${base}/mal%20id`, {
    json: { nombre: 'Gorra', precio: 1.234, moneda: 'pesos', stock: 1 },
  });
  assert.equal(badDomain.status, 422);
  assert.deepEqual(
    badDomain.body.detail.map((d: { loc: string[] }) => d.loc.join('.')),
    ['path.producto', 'body.precio', 'body.moneda'],
  );
  const mismatch = await h.client.put(`${base}/medias`, { json: { ...PRODUCTS[3], id: 'otro' } });
  assert.deepEqual([mismatch.status, mismatch.body.detail[0].loc], [422, ['body', 'id']]);
  assert.equal((await h.client.put(`${base}/medias`, { key: h.readKey, json: PRODUCTS[3] })).status, 403);

  assert.equal((await h.client.delete(`${base}/gorra`)).status, 204);
  const gone = await h.client.get(`${base}/gorra`);
  assert.deepEqual([gone.status, gone.body], [404, { detail: 'Producto no encontrado.', codigo: 'not_found' }]);
  assert.equal((await h.client.delete(`${base}/gorra`)).status, 404);
  assert.equal((await h.client.get(base)).body.total, 4);
});

const CSV_OK = `id;nombre;precio;moneda;stock;envio
zap-run;Zapatillas Runner;249.900;COP;3;Bogotá=10000|Medellín=12000
termo;Termo deportivo;"35.000,50";COP;7;
`;

test('CSV import: all or nothing by default, with an error per line; parcial imports the good lines', async (t) => {
  const h = await startTestHost(t, { plugins: [ventas] });
  const base = `/mod/ventas/${h.spaceId}/productos`;
  await h.client.put(`${base}/medias`, { json: PRODUCTS[3] });
  const withErrors = `${CSV_OK}gorra;Gorra;treinta;COP;2;\nzap-run;Repetida;1;COP;1;\n`;

  const refused = await h.client.post(`${base}/importar`, { json: { csv: withErrors } });
  assert.equal(refused.status, 422);
  assert.deepEqual(
    refused.body.detail.map((d: { loc: unknown[] }) => d.loc),
    [
      ['body', 'csv', 4],
      ['body', 'csv', 5],
    ],
  );
  assert.match(refused.body.detail[0].msg, /^línea 4: precio/);
  assert.match(refused.body.detail[1].msg, /repetido/);
  assert.deepEqual(
    (await h.client.get(base)).body.productos.map((p: { id: string }) => p.id),
    ['medias'],
    'nothing imported',
  );

  const partial = await h.client.post(`${base}/importar`, { json: { csv: withErrors, parcial: true } });
  assert.equal(partial.status, 200);
  assert.deepEqual(
    { ...partial.body, errores: partial.body.errores.map((e: { linea: number }) => e.linea) },
    { importados: 2, creados: 2, actualizados: 0, eliminados: 0, errores: [4, 5] },
  );
  const termo = (await h.client.get(`${base}/termo`)).body;
  assert.deepEqual([termo.precio, termo.envio], [35000.5, undefined]);
  assert.deepEqual((await h.client.get(`${base}/zap-run`)).body.envio, { Bogotá: 10000, Medellín: 12000 });

  const replace = await h.client.post(`${base}/importar`, { json: { csv: CSV_OK, modo: 'reemplazar' } });
  assert.deepEqual(replace.body, { importados: 2, creados: 0, actualizados: 2, eliminados: 1, errores: [] });
  assert.deepEqual(
    (await h.client.get(base)).body.productos.map((p: { id: string }) => p.id),
    ['zap-run', 'termo'],
  );

  const badHeader = await h.client.post(`${base}/importar`, {
    json: { csv: 'codigo,nombre\n1,x\n', parcial: true, modo: 'reemplazar' },
  });
  assert.equal(badHeader.status, 422, 'a file with no valid line changes nothing, even with parcial');
  assert.match(badHeader.body.detail[0].msg, /faltan columnas/);
  const badBody = await h.client.post(`${base}/importar`, { json: { modo: 'todo', extra: 1 } });
  assert.deepEqual(
    badBody.body.detail.map((d: { loc: string[] }) => d.loc.join('.')),
    ['body.modo', 'body.extra', 'body.csv'],
    'in the order sent, the missing field last',
  );
  assert.equal((await h.client.get(base)).body.total, 2);
});

test('CSV import with simular: every bad line and what would change, and the catalog untouched', async (t) => {
  const h = await startTestHost(t, { plugins: [ventas] });
  const base = `/mod/ventas/${h.spaceId}/productos`;
  await h.client.put(`${base}/medias`, { json: PRODUCTS[3] });
  const withErrors = `${CSV_OK}gorra;Gorra;treinta;COP;2;\nzap-run;Repetida;1;COP;1;\n`;
  const preview = await h.client.post(`${base}/importar`, {
    json: { csv: withErrors, simular: true, modo: 'reemplazar' },
  });
  assert.equal(preview.status, 200, preview.text);
  assert.deepEqual(
    { ...preview.body, errores: preview.body.errores.map((e: { linea: number }) => e.linea) },
    { importados: 2, creados: 2, actualizados: 0, eliminados: 1, errores: [4, 5], simulado: true },
  );
  assert.match(preview.body.errores[0].mensaje, /precio/);
  assert.deepEqual(
    (await h.client.get(base)).body.productos.map((p: { id: string }) => p.id),
    ['medias'],
    'nothing imported, nothing removed',
  );
  const clean = await h.client.post(`${base}/importar`, { json: { csv: CSV_OK, simular: true } });
  assert.deepEqual(clean.body, {
    importados: 2,
    creados: 2,
    actualizados: 0,
    eliminados: 0,
    errores: [],
    simulado: true,
  });
  assert.equal((await h.client.get(base)).body.total, 1);
});

test('a catalog change reaches the very next answer (new catalog array after each write)', async (t) => {
  const { h, ventas: base, chat } = await startShop(t, { leadsConfig: { marca_activa: false } });
  const c = chat();
  assert.equal(
    (await c.say('¿cuánto cuestan las medias deportivas?')).respuesta,
    'El precio de las medias deportivas es 15.000 COP.',
  );
  await h.client.put(`${base}/productos/medias`, { json: { ...PRODUCTS[3], precio: 17000 } });
  assert.equal(
    (await c.say('¿cuánto cuestan las medias deportivas?')).respuesta,
    'El precio de las medias deportivas es 17.000 COP.',
  );
  const quoted = await c.say('me llevo 2 medias deportivas');
  assert.deepEqual([quoted.cotizacion.total, quoted.cotizacion.lineas[0].precio], [34000, 17000]);
  await h.client.delete(`${base}/productos/medias`);
  assert.doesNotMatch((await c.say('¿cuánto cuestan las medias deportivas?')).respuesta, /15\.000|17\.000/);
  const lead = (await h.client.get(`${base}/conversaciones/${c.id}`)).body;
  assert.deepEqual([lead.cotizacion.lineas, lead.cotizacion.total, lead.cotizacion.retirados], [[], 0, ['medias']]);
});

test('conversations: 1 credit per message, refusals cost nothing (also on an empty pool), reads free; a lee key talks but cannot resume', async (t) => {
  const { h, ventas: base, chat } = await startShop(t, { credits: 3, leadsConfig: { marca_activa: false } });
  const movements = async () =>
    (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.movimientos as {
      delta: number;
      motivo: string;
      ruta: string;
    }[];
  const c = chat(h.readKey);
  const first = await c.say('hola', { contacto: { nombre: 'Ana', telefono: '+57 300 000 0000' } });
  assert.match(first.conversacion, /^conv_/);
  assert.equal(first.creditos, 1);

  const bad = await h.client.post(`${base}/conversaciones`, { json: { mensaje: '', contacto: { apodo: 'x' } } });
  assert.deepEqual(
    bad.body.detail.map((d: { loc: string[] }) => d.loc.join('.')),
    ['body.mensaje', 'body.contacto.apodo'],
  );
  const unknown = await h.client.post(`${base}/conversaciones`, {
    json: { mensaje: 'hola', conversacion: 'conv_nope' },
  });
  assert.deepEqual(
    [unknown.status, unknown.body],
    [404, { detail: 'Conversación no encontrada.', codigo: 'not_found' }],
  );
  const blank = await h.client.post(`${base}/conversaciones`, { json: { mensaje: '   ' } });
  assert.deepEqual(
    [blank.status, blank.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))],
    [422, ['body.mensaje']],
  );
  await h.client.get(`${base}/conversaciones`);
  await h.client.get(`${base}/conversaciones/${c.id}`);
  await h.client.get(`${base}/productos`);
  await h.client.get(`${base}/leads-config`);
  assert.equal(
    (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.saldo,
    2,
    'only the accepted message was charged',
  );
  // Refused by the route before the charge (its `checks`): no `consumo` and `reembolso` pair in the history.
  assert.deepEqual(
    (await movements()).map((m) => `${m.motivo}${m.delta}`),
    ['consumo-1', 'recarga3'],
    'the refused calls never reached the credit pool',
  );

  await c.say('¿cuánto cuesta la camiseta roja?');
  await c.say('¿y las medias deportivas?');
  const broke = await h.client.post(`${base}/conversaciones`, {
    key: h.readKey,
    json: { mensaje: 'hola', conversacion: c.id },
  });
  assert.equal(broke.status, 402, 'the pool is empty');
  // On the empty pool a refused message is still answered with its own refusal, not 402.
  const unknownWhenEmpty = await h.client.post(`${base}/conversaciones`, {
    key: h.readKey,
    json: { mensaje: 'hola', conversacion: 'conv_nope' },
  });
  assert.equal(unknownWhenEmpty.status, 404);
  const blankWhenEmpty = await h.client.post(`${base}/conversaciones`, {
    key: h.readKey,
    json: { mensaje: ' ', conversacion: c.id },
  });
  assert.equal(blankWhenEmpty.status, 422);
  assert.equal((await movements()).filter((m) => m.motivo === 'reembolso').length, 0);

  const resume = await h.client.post(`${base}/conversaciones/${c.id}/reanudar`, { key: h.readKey });
  assert.equal(resume.status, 403);
  const record = (await h.client.get(`${base}/conversaciones/${c.id}`, { key: h.readKey })).body;
  assert.deepEqual(record.contacto, { nombre: 'Ana', telefono: '+57 300 000 0000' });
  assert.equal(record.mensajes.length, 6);
  assert.deepEqual(
    record.mensajes.map((m: { rol: string }) => m.rol),
    ['cliente', 'agente', 'cliente', 'agente', 'cliente', 'agente'],
  );
  assert.equal(record.mensajes[0].texto, 'hola');

  const doc = (await h.client.get('/openapi.json', { key: null })).body;
  const costs = Object.values<Record<string, { operationId: string; 'x-cerebro-creditos': number }>>(doc.paths)
    .flatMap((m) => Object.values(m))
    .filter((op) => op.operationId.startsWith('ventas.'))
    .map((op) => [op.operationId, op['x-cerebro-creditos']]);
  assert.equal(costs.length, 12);
  assert.deepEqual(
    costs.filter(([, c]) => c !== 0),
    [['ventas.converse', 1]],
    'only the message route costs credits',
  );
});

test('a space without the module gets 403 on every ventas route', async (t) => {
  const h = await startTestHost(t, { plugins: [ventas], modules: ['api'] });
  for (const [method, path] of [
    ['GET', '/leads-config'],
    ['GET', '/productos'],
    ['POST', '/conversaciones'],
  ] as const) {
    const res = await h.client.request(
      method,
      `/mod/ventas/${h.spaceId}${path}`,
      method === 'POST' ? { json: { mensaje: 'hola' } } : {},
    );
    assert.deepEqual(
      [res.status, res.body],
      [403, { detail: 'módulo no habilitado para este espacio', codigo: 'module_disabled' }],
    );
  }
});

test('two messages of one conversation at once are handled in turn: both reach the quote, transcript in order', async (t) => {
  const { h, ventas: base, chat } = await startShop(t, { leadsConfig: { marca_activa: false } });
  const c = chat();
  await c.say('hola');
  const send = () =>
    h.client.post(`${base}/conversaciones`, { json: { mensaje: 'me llevo 1 medias deportivas', conversacion: c.id } });
  const [a, b] = await Promise.all([send(), send()]);
  assert.deepEqual([a.status, b.status], [200, 200]);
  const record = (await h.client.get(`${base}/conversaciones/${c.id}`)).body;
  assert.deepEqual(
    record.cotizacion.lineas.map((l: { producto: string; cantidad: number }) => [l.producto, l.cantidad]),
    [['medias', 2]],
  );
  assert.deepEqual(
    record.mensajes.map((m: { rol: string }) => m.rol),
    ['cliente', 'agente', 'cliente', 'agente', 'cliente', 'agente'],
  );
});

test('spaces are isolated: another space of the same owner sees neither the catalog nor the conversations', async (t) => {
  const { h, ventas: base, chat } = await startShop(t);
  const c = chat();
  await c.say('hola');
  await h.admin.createSpace({ id: 'otra-tienda', ownerId: h.ownerId, modules: ['api', 'ventas'] });
  const other = '/mod/ventas/otra-tienda';
  assert.equal((await h.client.get(`${other}/productos`)).body.total, 0);
  assert.equal((await h.client.get(`${other}/conversaciones/${c.id}`)).status, 404);
  const res = await h.client.post(`${other}/conversaciones`, { json: { mensaje: 'hola', conversacion: c.id } });
  assert.equal(res.status, 404);
  assert.equal((await h.client.get(`${base}/conversaciones`)).body.total, 1);
});

test('a message retried with its Idempotency-Key is answered once and charged once; the transcript holds it once', async (t) => {
  const { h, ventas: base } = await startShop(t, { credits: 5, leadsConfig: { marca_activa: false } });
  const send = () =>
    h.client.post(`${base}/conversaciones`, {
      key: h.readKey,
      json: { mensaje: '¿cuánto cuesta la camiseta roja?' },
      headers: { 'idempotency-key': 'mensaje-1' },
    });
  const first = await send();
  const retry = await send();
  assert.equal(first.status, 200, first.text);
  assert.equal(retry.text, first.text);
  assert.equal(retry.headers.get('idempotent-replayed'), 'true');
  assert.equal((await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.saldo, 4);
  const transcript = (await h.client.get(`${base}/conversaciones/${first.body.conversacion}`)).body;
  assert.equal(
    JSON.stringify(transcript).split('¿cuánto cuesta la camiseta roja?').length - 1,
    1,
    'the message was stored once',
  );
});
