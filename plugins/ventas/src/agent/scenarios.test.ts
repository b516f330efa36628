// Whole conversations at the domain level (the HTTP versions belong to the end-to-end suite).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brand, Conversation } from './test-fixtures.js';
import { ConversationRunner, type ConversationStore } from './runner.js';
import type { ConversationState } from './state.js';

test('escenario: una venta completa', async () => {
  const conv = new Conversation({ config: { mensajes_entre_combos: 2 } });
  const combos: string[] = [];
  const track = async (m: string) => {
    const r = await conv.say(m);
    if (r.suggestedCombo) combos.push(r.suggestedCombo);
    return r;
  };

  const hola = await track('Holaa buenas');
  assert.equal(hola.tipo, 'saludo');
  assert.equal(hola.respuesta, '¡Hola! Soy Sofía, asesora de ventas en Deportes Ruiz. ¿En qué te puedo ayudar?');

  const producto = await track('q precio tienen las zapatilas runner??');
  assert.equal(producto.tipo, 'producto');
  assert.deepEqual(producto.respuesta!.split('\n'), [
    'El precio de las zapatillas Runner es 250.000 COP.',
    'Te recomiendo sumar el kit Runner con medias. Así proteges tus pies desde el primer día.',
    '¿A qué ciudad te lo enviamos?',
  ]);

  const otraVez = await track('¿y cuántas zapatillas les quedan?');
  assert.match(otraVez.respuesta!, /^Tenemos 3 unidades de las zapatillas Runner\./);

  const cotiza = await track('me llevo 2 zapatillas y 2 medias');
  assert.equal(cotiza.tipo, 'cotizacion');
  assert.deepEqual(cotiza.respuesta!.split('\n'), [
    'Agregué 2 x Zapatillas Runner y 2 x Medias deportivas a tu cotización.',
    'Tu cotización:',
    '2 x Zapatillas Runner: 500.000 COP',
    '2 x Medias deportivas: 30.000 COP',
    'Total sin envío: 530.000 COP; El envío se suma cuando me digas tu ciudad.', // max_lineas 6
    '¿A qué ciudad te lo enviamos?',
  ]);

  const ciudad = await track('bogota');
  assert.equal(ciudad.tipo, 'ciudad');
  assert.equal(conv.state.ciudad, 'Bogotá');
  assert.ok(
    ciudad.respuesta!.includes('Envío a Bogotá: 10.000 COP'),
    'one shipment: the highest cost of the quoted products',
  );
  assert.ok(ciudad.respuesta!.includes('Total: 540.000 COP'));
  assert.ok(
    ciudad.respuesta!.endsWith('¿Quieres que te prepare una cotización?'),
    'closing question, city one skipped',
  );

  const adios = await track('listo, muchas gracias. chao');
  assert.equal(adios.tipo, 'despedida');
  assert.equal(adios.respuesta, '¡Gracias por escribirnos! Que tengas un excelente día.');
  assert.deepEqual(combos, ['el kit Runner con medias'], 'the combo was suggested exactly once');
  assert.deepEqual(conv.state.cotizacion, [
    { productId: 'zap-run', cantidad: 2 },
    { productId: 'medias', cantidad: 2 },
  ]);
});

test('escenario: derivación a una persona, después el agente calla', async () => {
  const conv = new Conversation();
  await conv.say('hola');
  const r = await conv.say('me pasas con un asesor humano por favor');
  assert.equal(r.tipo, 'derivacion');
  assert.equal(r.respuesta, 'Listo, te comunico con una persona del equipo. Te escribirá por este mismo chat.');
  assert.equal(conv.state.estado, 'derivada');
  assert.equal(conv.state.motivoDerivacion, 'pedido');
  for (const m of ['¿hola?', '¿cuánto cuestan las zapatillas?', 'gracias']) {
    const silent = await conv.say(m);
    assert.equal(silent.respuesta, null);
    assert.equal(silent.tipo, null);
  }
});

test('escenario: derivación cuando el agente no puede ayudar', async () => {
  const conv = new Conversation({ config: { derivar_tras_fallos: 2 } });
  const first = await conv.say('¿puedo pagar con bitcoin?');
  assert.equal(first.tipo, 'aclaracion');
  const second = await conv.say('¿y aceptan cheques?');
  assert.equal(second.tipo, 'derivacion');
  assert.equal(conv.state.motivoDerivacion, 'sin_respuesta');
  assert.equal((await conv.say('¿hola?')).respuesta, null);
});

test('escenario: producto sin stock', async () => {
  const conv = new Conversation();
  const info = await conv.say('¿tienen la camiseta azul?');
  assert.equal(info.respuesta!.split('\n')[1], 'Por ahora no quedan unidades de la camiseta azul.');
  assert.equal(info.suggestedCombo, null);
  const add = await conv.say('quiero 1 camiseta azul');
  assert.match(add.respuesta!, /^Por ahora no quedan unidades de la camiseta azul, así que no se puede agregar/);
  assert.deepEqual(conv.state.cotizacion, []);
  const tooMany = await conv.say('dame 4 zapatillas');
  assert.match(tooMany.respuesta!, /^Solo tenemos 3 unidades de las zapatillas Runner/);
  assert.deepEqual(conv.state.cotizacion, []);
});

test('escenario: la marca se apaga a mitad de conversación', async () => {
  const conv = new Conversation({ config: { mensajes_entre_combos: 0 } });
  const branded = await conv.say('hola, ¿cuánto cuestan las medias?');
  assert.equal(branded.marca.aplicada, true);
  assert.ok(branded.closingPrompt !== null);
  conv.source.current = brand({ activo: false });
  conv.clock.advance(60_000);
  const plain = await conv.say('¿cuánto cuestan las zapatillas?');
  assert.equal(plain.marca.aplicada, false);
  assert.equal(plain.respuesta, 'El precio de las zapatillas Runner es 250.000 COP.');
  assert.equal(plain.suggestedCombo, null);
  assert.equal(plain.closingPrompt, null);
  assert.match(plain.descripcion, /^Eres el asistente de ventas/);
  // Switching marca_activa off in the sales settings has the same effect, immediately.
  conv.source.current = brand();
  conv.clock.advance(60_000);
  assert.equal((await conv.say('¿y las medias?')).marca.aplicada, true);
  conv.config = { ...conv.config, marca_activa: false };
  assert.equal((await conv.say('¿y las medias?')).marca.aplicada, false);
});

test('escenario: varias preguntas, cambios de opinión y productos ambiguos', async () => {
  const conv = new Conversation({
    brand: brand({ tacticas: { upsell_activo: false, pregunta_cierre_obligatoria: false } }),
  });
  assert.equal(
    (await conv.say('¿cuánto cuestan las zapatillas y las medias?')).respuesta,
    'El precio de las zapatillas Runner es 250.000 COP.\nEl precio de las medias deportivas es 15.000 COP.',
  );
  assert.equal(
    (await conv.say('quiero una camiseta')).respuesta,
    'Tengo varias opciones: Camiseta roja (45.000 COP) y Camiseta azul (45.000 COP). ¿Cuál te interesa?',
  );
  assert.match((await conv.say('la roja')).respuesta!, /^Camiseta roja: /);
  assert.match((await conv.say('me la llevo')).respuesta!, /^Agregué 1 x Camiseta roja a tu cotización\./);
  assert.match(
    (await conv.say('no quiero las medias')).respuesta!,
    /^Las medias deportivas no están en tu cotización\./,
  );
  const quitada = await conv.say('mejor no, quita la camiseta roja');
  assert.match(quitada.respuesta!, /^Quité la camiseta roja de tu cotización\.\nTu cotización está vacía\.$/);
  assert.deepEqual(conv.state.cotizacion, []);
});

/** A runner over a store in memory (each save a turn of the event loop later), on conversation `c1` of space `e`. */
function memoryRunner() {
  const conv = new Conversation();
  const saved = new Map<string, ConversationState>();
  const store: ConversationStore = {
    load: async (e, c) => saved.get(`${e}/${c}`) ?? null,
    save: async (e, c, s) => {
      await new Promise((r) => setImmediate(r));
      saved.set(`${e}/${c}`, s);
    },
  };
  const input = (mensaje: string) => ({
    espacio: 'e',
    conversacion: 'c1',
    mensaje,
    config: conv.config,
    brandEnabled: true,
  });
  return { runner: new ConversationRunner(conv.agent, store), saved, input };
}

test('the runner serialises messages of one conversation and persists the state', async () => {
  const { runner, saved, input } = memoryRunner();
  await Promise.all([runner.handle(input('quiero 1 medias')), runner.handle(input('quiero 2 medias'))]);
  assert.deepEqual(saved.get('e/c1')!.cotizacion, [{ productId: 'medias', cantidad: 3 }]);
  assert.equal(saved.get('e/c1')!.turno, 2);
});

test("the runner records each message's transcript in its turn: in the order the messages were answered", async () => {
  const { runner, input } = memoryRunner();
  const events: string[] = [];
  // The first message's append is slow (a round trip to a database server): the second must wait for it.
  const record = (mensaje: string, ms: number) => async (result: { state: ConversationState }) => {
    events.push(`${mensaje}: respondido en el turno ${result.state.turno}`);
    await new Promise((r) => setTimeout(r, ms));
    events.push(`${mensaje}: registrado`);
  };
  await Promise.all([
    runner.handle(input('quiero 1 medias'), record('primero', 50)),
    runner.handle(input('quiero 2 medias'), record('segundo', 0)),
  ]);
  assert.deepEqual(events, [
    'primero: respondido en el turno 1',
    'primero: registrado',
    'segundo: respondido en el turno 2',
    'segundo: registrado',
  ]);
});
