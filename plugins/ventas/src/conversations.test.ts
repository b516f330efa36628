// Whole conversations end to end over HTTP: a sale, a hand-off, an out-of-stock product, a brand switched off
// mid-conversation, and questions answered from the space's documents.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BRAND_GREETING, lines, ManualClock, startShop } from './test-support.js';

test('escenario: una venta completa (saludo, producto, combo una vez, cotización, ciudad, cierre, despedida)', async (t) => {
  const { h, ventas: base, chat } = await startShop(t);
  const c = chat();
  const combos: string[] = [];
  const say = async (m: string, extra?: Record<string, unknown>) => {
    const r = await c.say(m, extra);
    if (r.combo_sugerido) combos.push(r.combo_sugerido);
    return r;
  };

  assert.equal((await say('Holaa buenas', { contacto: { nombre: 'Ana' } })).respuesta, BRAND_GREETING);
  const product = await say('q precio tienen las zapatilas runner??');
  assert.deepEqual(lines(product.respuesta), [
    'El precio de las zapatillas Runner es 250.000 COP.',
    'Te recomiendo sumar el kit Runner con medias. Así proteges tus pies desde el primer día.',
    '¿A qué ciudad te lo enviamos?',
  ]);
  assert.match(
    (await say('¿y cuántas zapatillas les quedan?')).respuesta,
    /^Tenemos 3 unidades de las zapatillas Runner\./,
  );

  const quote = await say('me llevo 2 zapatillas y 2 medias');
  assert.equal(quote.tipo, 'cotizacion');
  assert.ok(quote.respuesta.includes('Total sin envío: 530.000 COP'));
  assert.deepEqual(
    quote.cotizacion.lineas.map((l: { producto: string; cantidad: number; importe: number }) => [
      l.producto,
      l.cantidad,
      l.importe,
    ]),
    [
      ['zap-run', 2, 500000],
      ['medias', 2, 30000],
    ],
  );

  const city = await say('bogota');
  assert.equal(city.ciudad, 'Bogotá');
  assert.ok(city.respuesta.includes('Envío a Bogotá: 10.000 COP'));
  assert.ok(city.respuesta.includes('Total: 540.000 COP'));
  assert.equal(
    city.pregunta_cierre,
    '¿Quieres que te prepare una cotización?',
    'closing question, the city one skipped',
  );
  assert.deepEqual(
    [city.cotizacion.subtotal, city.cotizacion.envio, city.cotizacion.total],
    [530000, { ciudad: 'Bogotá', costo: 10000 }, 540000],
  );

  const bye = await say('listo, muchas gracias. chao');
  assert.deepEqual(
    [bye.tipo, bye.respuesta, bye.pregunta_cierre],
    ['despedida', '¡Gracias por escribirnos! Que tengas un excelente día.', null],
  );
  assert.deepEqual(combos, ['el kit Runner con medias'], 'the combo was suggested exactly once');

  const leads = (await h.client.get(`${base}/conversaciones`, { key: h.readKey })).body;
  assert.equal(leads.total, 1);
  const lead = leads.conversaciones[0];
  assert.deepEqual(
    [lead.conversacion, lead.estado, lead.ciudad, lead.contacto, lead.cotizacion.total, lead.num_mensajes],
    [c.id, 'activa', 'Bogotá', { nombre: 'Ana' }, 540000, 12],
  );
});

test('escenario: derivación a una persona; el agente calla hasta que la conversación se le devuelve', async (t) => {
  const { h, ventas: base, chat } = await startShop(t);
  const c = chat();
  await c.say('hola');
  const handOff = await c.say('me pasas con un asesor humano por favor');
  assert.deepEqual([handOff.tipo, handOff.estado, handOff.motivo_derivacion], ['derivacion', 'derivada', 'pedido']);
  assert.equal(handOff.respuesta, 'Listo, te comunico con una persona del equipo. Te escribirá por este mismo chat.');
  const balance = async () => (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.saldo;
  const before = await balance();
  for (const m of ['¿hola?', '¿cuánto cuestan las zapatillas runner?']) {
    const silent = await c.say(m);
    assert.deepEqual([silent.respuesta, silent.tipo, silent.estado, silent.creditos], [null, null, 'derivada', 0]);
  }
  assert.equal(await balance(), before, 'silent turns cost nothing');
  const handedOff = (await h.client.get(`${base}/conversaciones?estado=derivada`)).body;
  assert.deepEqual(
    handedOff.conversaciones.map((x: { conversacion: string }) => x.conversacion),
    [c.id],
  );
  assert.equal((await h.client.get(`${base}/conversaciones?estado=activa`)).body.total, 0);
  const transcript = (await h.client.get(`${base}/conversaciones/${c.id}`)).body.mensajes;
  assert.deepEqual(
    transcript.map((m: { rol: string }) => m.rol),
    ['cliente', 'agente', 'cliente', 'agente', 'cliente', 'cliente'],
    'silent turns keep the lead message only',
  );

  const resumed = await h.client.post(`${base}/conversaciones/${c.id}/reanudar`);
  assert.deepEqual([resumed.status, resumed.body.estado, resumed.body.motivo_derivacion], [200, 'activa', null]);
  assert.equal(
    (await h.client.post(`${base}/conversaciones/${c.id}/reanudar`)).body.estado,
    'activa',
    'already active: no change',
  );
  assert.match(
    (await c.say('¿cuánto cuestan las zapatillas runner?')).respuesta,
    /^El precio de las zapatillas Runner es 250\.000 COP\./,
  );
  assert.equal((await h.client.post(`${base}/conversaciones/conv_nope/reanudar`)).status, 404);
});

test('escenario: un producto agotado no se cotiza ni se le sugiere combo', async (t) => {
  const { chat } = await startShop(t);
  const c = chat();
  const ask = await c.say('¿tienen la gorra trail?');
  assert.match(ask.respuesta, /no quedan unidades de la gorra trail/);
  assert.equal(ask.combo_sugerido, null);
  const add = await c.say('quiero 1 gorra trail');
  assert.match(
    add.respuesta,
    /Por ahora no quedan unidades de la gorra trail, así que no se puede agregar a la cotización\./,
  );
  assert.deepEqual(add.cotizacion.lineas, []);
  const tooMany = await c.say('me llevo 5 zapatillas runner');
  assert.match(tooMany.respuesta, /Solo tenemos 3 unidades de las zapatillas Runner/);
  assert.deepEqual(tooMany.cotizacion.lineas, []);
});

test('escenario: la marca se apaga a mitad de conversación', async (t) => {
  const clock = new ManualClock();
  const { h, ventas: base, chat } = await startShop(t, { clock });
  const c = chat();
  assert.equal((await c.say('hola')).respuesta, BRAND_GREETING);
  const before = await c.say('¿cuánto cuesta la camiseta roja?');
  assert.equal(before.pregunta_cierre, '¿A qué ciudad te lo enviamos?');

  await h.client.patch(`/mod/marca/${h.spaceId}/config`, { json: { activo: false } });
  clock.advance(60_000);
  const after = await c.say('¿cuánto cuestan las zapatillas runner?');
  assert.equal(
    after.respuesta,
    'El precio de las zapatillas Runner es 250.000 COP.',
    'own description: no combo, no closing question',
  );
  assert.deepEqual([after.marca.aplicada, after.combo_sugerido, after.pregunta_cierre], [false, null, null]);

  // Back on, then off through the sales switch: that one applies from the very next message.
  await h.client.patch(`/mod/marca/${h.spaceId}/config`, { json: { activo: true } });
  clock.advance(60_000);
  assert.equal((await c.say('¿cuánto cuestan las medias deportivas?')).marca.aplicada, true);
  await h.client.patch(`${base}/leads-config`, { json: { marca_activa: false } });
  const off = await c.say('¿cuánto cuestan las medias deportivas?');
  assert.deepEqual([off.respuesta, off.marca.aplicada], ['El precio de las medias deportivas es 15.000 COP.', false]);
});
