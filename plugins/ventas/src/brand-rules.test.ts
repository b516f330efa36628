// The numbered brand rules of contract section 1 that a route can show, over real HTTP with marca and ventas.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definePlugin, ModuleServices, type BrandReader, type BrandSnapshot } from '@cerebro/sdk';
import { brand } from './agent/test-fixtures.js';
import { BRAND, BRAND_GREETING, lines, ManualClock, OWN_GREETING, startShop, ventas } from './test-support.js';

test('regla 1: la marca se aplica solo con el módulo marca, marca_activa y activo; en cada mensaje', async (t) => {
  const { h, ventas: base, chat } = await startShop(t);
  const withBrand = await chat().say('hola');
  assert.equal(withBrand.respuesta, BRAND_GREETING);
  assert.deepEqual(withBrand.marca, { aplicada: true, origen: 'fresca' });

  await h.client.patch(`${base}/leads-config`, { json: { marca_activa: false } });
  const switchedOff = await chat().say('hola');
  assert.equal(switchedOff.respuesta, OWN_GREETING);
  assert.deepEqual(switchedOff.marca, { aplicada: false, origen: 'no_aplica' });

  await h.client.patch(`${base}/leads-config`, { json: { marca_activa: true } });
  await h.admin.disableModule(h.spaceId, 'marca');
  const noModule = await chat().say('hola');
  assert.equal(noModule.respuesta, OWN_GREETING);
  assert.equal(noModule.marca.aplicada, false);

  await h.admin.enableModule(h.spaceId, 'marca');
  const again = chat();
  assert.equal((await again.say('hola')).respuesta, BRAND_GREETING);
  const next = await again.say('¿cuánto cuestan las zapatillas runner?');
  assert.equal(next.marca.aplicada, true, 'the brand applies on every message, not only the greeting');
  assert.equal(next.combo_sugerido, 'el kit Runner con medias');
});

test('regla 2: con activo en false el agente usa su propia descripción y ninguna táctica', async (t) => {
  const { h, chat } = await startShop(t);
  await h.client.patch(`/mod/marca/${h.spaceId}/config`, { json: { activo: false } });
  const c = chat();
  assert.equal((await c.say('hola')).respuesta, OWN_GREETING);
  const product = await c.say('¿cuánto cuestan las zapatillas runner?');
  assert.equal(product.respuesta, 'El precio de las zapatillas Runner es 250.000 COP.');
  assert.deepEqual([product.marca.aplicada, product.combo_sugerido, product.pregunta_cierre], [false, null, null]);
});

test('regla 3: nombre y rol de la marca, max_lineas y emojis obligatorios', async (t) => {
  const { h, chat } = await startShop(t);
  await h.client.patch(`/mod/marca/${h.spaceId}/config`, {
    json: { estilo: { tono: ['cercano'], max_lineas: 2, emojis_permitidos: ['👟'], emojis_obligatorios: ['👟'] } },
  });
  const c = chat();
  assert.match((await c.say('hola')).respuesta, /^¡Hola! Soy Sofía, asesora de ventas en Deportes Ruiz\./);
  const answer = await c.say('me llevo 2 zapatillas runner y 2 medias');
  assert.ok(lines(answer.respuesta).length <= 2, answer.respuesta);
  assert.ok(answer.respuesta.includes('👟'));
  assert.ok(answer.respuesta.includes('530.000 COP'), 'joining lines never drops the figures');
});

test('regla 5: el combo va tras una respuesta de catálogo con stock, una vez por conversación, nunca al cotizar', async (t) => {
  const { chat } = await startShop(t, { leadsConfig: { marca_activa: true, mensajes_entre_combos: 0 } });
  const c = chat();
  const first = await c.say('¿cuánto cuestan las zapatillas runner?');
  assert.deepEqual(lines(first.respuesta).slice(0, 2), [
    'El precio de las zapatillas Runner es 250.000 COP.',
    'Te recomiendo sumar el kit Runner con medias. Así proteges tus pies desde el primer día.',
  ]);
  assert.equal(first.combo_sugerido, 'el kit Runner con medias');
  const again = await c.say('cuéntame de las zapatillas runner');
  assert.equal(again.combo_sugerido, null, 'each combo once per conversation');
  assert.ok(!again.respuesta.includes('kit Runner'));

  const quoting = chat();
  const quote = await quoting.say('me llevo 1 zapatillas runner');
  assert.equal(quote.tipo, 'cotizacion');
  assert.equal(quote.combo_sugerido, null, 'not while quoting');

  const noStock = await chat().say('¿cuánto cuesta la gorra trail?');
  assert.match(noStock.respuesta, /no quedan unidades/);
  assert.equal(noStock.combo_sugerido, null, 'not without stock');
});

test('regla 5: pasan los mensajes configurados en leads-config entre dos sugerencias', async (t) => {
  const {
    h,
    ventas: base,
    chat,
  } = await startShop(t, { leadsConfig: { marca_activa: true, mensajes_entre_combos: 2 } });
  await h.client.patch(`/mod/marca/${h.spaceId}/config`, {
    json: {
      tacticas: {
        ...BRAND.tacticas,
        upsell_combos: { zapatillas: 'el kit Runner', camiseta: 'el combo Camiseta y medias' },
      },
    },
  });
  const c = chat();
  assert.equal((await c.say('¿cuánto cuestan las zapatillas runner?')).combo_sugerido, 'el kit Runner');
  assert.equal(
    (await c.say('¿cuánto cuesta la camiseta roja?')).combo_sugerido,
    null,
    '1 message since the last suggestion',
  );
  assert.equal((await c.say('¿cuánto cuesta la camiseta roja?')).combo_sugerido, null, '2 messages');
  assert.equal(
    (await c.say('¿cuánto cuesta la camiseta roja?')).combo_sugerido,
    'el combo Camiseta y medias',
    'gap of 2 passed',
  );
  assert.equal((await h.client.get(`${base}/leads-config`)).body.mensajes_entre_combos, 2);
});

test('regla 6: preguntas de cierre por turnos, sin la de ciudad si ya se conoce, nunca al despedirse o derivar', async (t) => {
  const { chat } = await startShop(t);
  const c = chat();
  const first = await c.say('¿cuánto cuesta la camiseta roja?');
  assert.equal(first.pregunta_cierre, '¿A qué ciudad te lo enviamos?');
  assert.ok(first.respuesta.endsWith('¿A qué ciudad te lo enviamos?'));
  const city = await c.say('Bogotá');
  assert.equal(city.ciudad, 'Bogotá');
  assert.equal(city.pregunta_cierre, '¿Quieres que te prepare una cotización?');
  const third = await c.say('¿cuánto cuestan las medias deportivas?');
  assert.equal(
    third.pregunta_cierre,
    '¿Quieres que te prepare una cotización?',
    'the city question is skipped: the city is known',
  );
  const bye = await c.say('gracias, chao');
  assert.deepEqual([bye.tipo, bye.pregunta_cierre], ['despedida', null]);

  const handOff = await chat().say('quiero hablar con una persona');
  assert.deepEqual([handOff.tipo, handOff.pregunta_cierre, handOff.combo_sugerido], ['derivacion', null, null]);
});

/** A stand-in for marca whose brand reader the test controls: answers, fails, or never answers. */
function controllableMarca() {
  const control = { mode: 'ok' as 'ok' | 'error' | 'hang', calls: 0 };
  const snapshot: BrandSnapshot = brand();
  const reader: BrandReader = {
    read: () => {
      control.calls++;
      if (control.mode === 'error') throw new Error('marca caída');
      if (control.mode === 'hang') return new Promise<BrandSnapshot>(() => undefined);
      return Promise.resolve(structuredClone(snapshot));
    },
  };
  const plugin = definePlugin({
    manifest: {
      id: 'marca',
      version: '1.0.0',
      sdk: '^1.0.0',
      title: 'Marca de prueba',
      provides: [ModuleServices.Brand],
      routes: [],
    },
    setup: (scope) => {
      scope.container.register(ModuleServices.Brand, { useValue: reader });
      return { handlers: {} };
    },
  });
  return { control, plugin };
}

test('regla 7: si marca falla o no responde se usa la última marca que se tuvo, y siempre hay respuesta', async (t) => {
  const clock = new ManualClock();
  const { control, plugin } = controllableMarca();
  const { chat } = await startShop(t, {
    plugins: [plugin, ventas],
    clock,
    brand: false,
    env: { CEREBRO_VENTAS_MARCA_ESPERA_MS: '100' },
  });
  assert.equal((await chat().say('hola')).respuesta, BRAND_GREETING);

  for (const mode of ['error', 'hang'] as const) {
    control.mode = mode;
    clock.advance(61_000); // past the cache: marca is asked again
    const res = await chat().say('hola');
    assert.equal(res.respuesta, BRAND_GREETING, `${mode}: the last brand it had`);
    assert.deepEqual(res.marca, { aplicada: true, origen: 'ultima_conocida' });
  }
  control.mode = 'ok';
  clock.advance(61_000);
  assert.equal((await chat().say('hola')).marca.origen, 'fresca');
});

test('regla 7: sin marca previa, con marca caída, colgada o ausente, descripción propia y siempre una respuesta', async (t) => {
  for (const mode of ['error', 'hang'] as const) {
    const { control, plugin } = controllableMarca();
    control.mode = mode;
    const { chat } = await startShop(t, {
      plugins: [plugin, ventas],
      brand: false,
      env: { CEREBRO_VENTAS_MARCA_ESPERA_MS: '100' },
    });
    const c = chat();
    const res = await c.say('hola');
    assert.equal(res.respuesta, OWN_GREETING, mode);
    assert.deepEqual(res.marca, { aplicada: false, origen: 'ninguna' });
    assert.equal(
      (await c.say('¿cuánto cuestan las zapatillas runner?')).respuesta,
      'El precio de las zapatillas Runner es 250.000 COP.',
    );
  }
  // No brand service at all, though the space lists the module and marca_activa is on. The host only lets an
  // operator enable installed modules, so a `marca` that provides nothing stands for the absent one.
  const emptyMarca = definePlugin({
    manifest: { id: 'marca', version: '1.0.0', sdk: '^1.0.0', title: 'Marca vacía', routes: [] },
    setup: () => ({ handlers: {} }),
  });
  const { chat } = await startShop(t, {
    plugins: [emptyMarca, ventas],
    brand: false,
    modules: ['api', 'ventas', 'marca'],
  });
  const res = await chat().say('hola');
  assert.equal(res.respuesta, OWN_GREETING);
  assert.equal(res.marca.aplicada, false);
});

test('regla 8: un cambio de marca llega a las conversaciones en menos de un minuto (reloj inyectado)', async (t) => {
  const clock = new ManualClock();
  const { h, chat } = await startShop(t, { clock });
  const c = chat();
  assert.equal((await c.say('hola')).respuesta, BRAND_GREETING);
  await h.client.patch(`/mod/marca/${h.spaceId}/config`, {
    json: { name: 'Sol Deportes', identidad: { nombre_agente: 'Lucía', rol: 'asesora' } },
  });
  // Within the minute the cached brand may still answer: the clock has not moved at all here.
  assert.equal((await chat().say('hola')).marca.origen, 'cache');
  clock.advance(60_000);
  const after = await chat().say('hola');
  assert.equal(after.respuesta, '¡Hola! Soy Lucía, asesora en Sol Deportes. ¿En qué te puedo ayudar?');
  assert.equal(after.marca.origen, 'fresca');
});
