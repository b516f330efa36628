// One test (or a few, same number) per numbered rule of the brand behaviour (spec section 1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BrandCache, MAX_BRAND_TTL_MS } from './brand.js';
import { brand, Conversation, FakeBrandSource, FakeClock, PERSONA } from './test-fixtures.js';

const lines = (text: string | null) => (text ?? '').split('\n');

test('regla 1: la marca se aplica solo con módulo habilitado, marca_activa y activo', async () => {
  const cases = [
    { brandEnabled: false, marca_activa: true, activo: true, aplica: false },
    { brandEnabled: true, marca_activa: false, activo: true, aplica: false },
    { brandEnabled: true, marca_activa: true, activo: false, aplica: false },
    { brandEnabled: true, marca_activa: true, activo: true, aplica: true },
  ];
  for (const c of cases) {
    const conv = new Conversation({
      brand: brand({ activo: c.activo }),
      brandEnabled: c.brandEnabled,
      config: { marca_activa: c.marca_activa },
    });
    const r = await conv.say('hola');
    assert.equal(r.marca.aplicada, c.aplica, JSON.stringify(c));
    assert.equal(
      r.descripcion === PERSONA,
      c.aplica,
      'the persona replaces the own description only when all three hold',
    );
    assert.equal(r.respuesta!.includes('Sofía'), c.aplica);
    if (!c.brandEnabled || !c.marca_activa) assert.equal(conv.source.calls, 0, 'brand not even read');
  }
});

test('regla 1: la descripción de la marca se aplica en cada mensaje', async () => {
  const conv = new Conversation();
  for (const m of ['hola', '¿cuánto cuestan las zapatillas?', 'quiero 1 zapatillas']) {
    assert.equal((await conv.say(m)).descripcion, PERSONA);
  }
});

test('regla 2: con activo en false el agente usa su propia descripción y ninguna táctica', async () => {
  const conv = new Conversation({
    brand: brand({ activo: false, estilo: { emojis_permitidos: ['👟'], emojis_obligatorios: ['👟'], max_lineas: 1 } }),
  });
  const hola = await conv.say('hola');
  assert.match(hola.respuesta!, /^¡Hola! Soy el asistente de ventas de la tienda\./);
  assert.match(hola.descripcion, /^Eres el asistente de ventas de la tienda\./);
  const r = await conv.say('¿cuánto cuestan las zapatillas?');
  assert.equal(r.respuesta, 'El precio de las zapatillas Runner es 250.000 COP.');
  assert.equal(r.suggestedCombo, null);
  assert.equal(r.closingPrompt, null);
  assert.ok(!r.respuesta!.includes('👟'), 'no brand emojis either');
});

test('regla 3: se presenta con nombre y rol de la marca y respeta max_lineas', async () => {
  const conv = new Conversation({ brand: brand({ estilo: { max_lineas: 2 } }) });
  const hola = await conv.say('buenas tardes');
  assert.match(hola.respuesta!, /Soy Sofía, asesora de ventas en Deportes Ruiz\./);
  const r = await conv.say('quiero 2 zapatillas y 1 camiseta roja, soy de Bogotá');
  assert.ok(lines(r.respuesta).length <= 2, r.respuesta!);
  for (const needed of ['500.000 COP', '45.000 COP', 'Total: 555.000 COP'])
    assert.ok(r.respuesta!.includes(needed), needed);
});

test('regla 3: texto plano y emojis de la marca, también sobre la redacción externa', async () => {
  const conv = new Conversation({
    brand: brand({ estilo: { solo_texto_plano: true, emojis_permitidos: ['👟', '😊'], emojis_obligatorios: ['👟'] } }),
    deps: { wording: { reword: async (req) => `**Claro** 🔥 😊\n- ${req.borrador}` } },
  });
  const r = await conv.say('¿cuánto cuestan las zapatillas?');
  assert.equal(r.redaccion, 'externa');
  assert.ok(!r.respuesta!.includes('**'), 'no markdown');
  assert.ok(!r.respuesta!.includes('- '), 'no list bullets');
  assert.ok(!r.respuesta!.includes('🔥'), 'emoji outside the allowed list removed');
  assert.ok(r.respuesta!.includes('😊') && r.respuesta!.includes('👟'), 'allowed kept, mandatory added');
});

test('regla 3: con tono formal el agente trata al cliente de usted', async () => {
  const conv = new Conversation({
    brand: brand({
      estilo: { tono: ['formal'] },
      tacticas: { upsell_activo: false, pregunta_cierre_obligatoria: false },
    }),
  });
  assert.equal(
    (await conv.say('buenos días')).respuesta,
    '¡Hola! Soy Sofía, asesora de ventas en Deportes Ruiz. ¿En qué le puedo ayudar?',
  );
  const q = await conv.say('quiero 1 medias');
  assert.match(q.respuesta!, /a su cotización\.\nSu cotización:/);
  assert.match(q.respuesta!, /cuando me indique su ciudad/);
  assert.equal((await conv.say('adiós')).respuesta, '¡Gracias por escribirnos! Que tenga un excelente día.');
});

test('regla 4: una cifra inventada por la redacción externa nunca se envía', async () => {
  const conv = new Conversation({
    deps: {
      wording: {
        reword: async () => 'Las Zapatillas Runner cuestan 199.000 COP y tenemos 12 unidades, con 10% de descuento.',
      },
    },
  });
  const r = await conv.say('¿cuánto cuestan las zapatillas?');
  assert.equal(r.redaccion, 'plantilla');
  assert.ok(r.respuesta!.startsWith('El precio de las zapatillas Runner es 250.000 COP.'));
  assert.ok(!r.respuesta!.includes('199.000') && !r.respuesta!.includes('10%'));
  assert.deepEqual(r.correcciones.map((v) => v.tipo).sort(), ['descuento', 'dinero', 'stock']);
});

test('regla 4: las cifras de respuestas de documentos se comprueban contra el catálogo', async () => {
  const conv = new Conversation({
    knowledge: () => 'Nuestra tienda abre de lunes a sábado. La garantía extendida cuesta 20.000 COP.',
  });
  const r = await conv.say('¿qué horario tienen?');
  assert.equal(r.tipo, 'conocimiento');
  assert.ok(r.respuesta!.startsWith('Nuestra tienda abre de lunes a sábado.'));
  assert.ok(!r.respuesta!.includes('20.000'), 'unbacked price dropped');
  assert.equal(r.correcciones[0].tipo, 'dinero');
});

test('regla 4: la descripción propia también termina con las reglas fijas', async () => {
  const conv = new Conversation({ config: { marca_activa: false } });
  const r = await conv.say('hola');
  assert.match(
    r.descripcion,
    /No inventes precios, totales, plazos, descuentos ni disponibilidad.*No hables de procesos internos\. No ofrezcas un asesor humano\.$/s,
  );
});

test('regla 5: el combo se agrega a una respuesta de catálogo sobre el producto', async () => {
  const conv = new Conversation();
  const r = await conv.say('¿cuánto cuestan las zapatillas?');
  assert.equal(r.suggestedCombo, 'el kit Runner con medias');
  assert.equal(
    lines(r.respuesta)[1],
    'Te recomiendo sumar el kit Runner con medias. Así proteges tus pies desde el primer día.',
  );
});

test('regla 5: un combo escrito como id o nombre de un producto se dice con el nombre del catálogo, nunca con el id', async () => {
  const byId = new Conversation({ brand: brand({ tacticas: { upsell_combos: { zapatillas: 'medias' } } }) });
  const r = await byId.say('¿cuánto cuestan las zapatillas?');
  assert.equal(r.suggestedCombo, 'Medias deportivas');
  assert.equal(
    lines(r.respuesta)[1],
    'Te recomiendo sumar las medias deportivas. Así proteges tus pies desde el primer día.',
  );
  const unknownId = new Conversation({ brand: brand({ tacticas: { upsell_combos: { zapatillas: 'kit-run-01' } } }) });
  const u = await unknownId.say('¿cuánto cuestan las zapatillas?');
  assert.equal(u.suggestedCombo, null, 'an id that names no product is never said');
  assert.ok(!u.respuesta!.includes('kit-run-01'));
  const soldOut = new Conversation({ brand: brand({ tacticas: { upsell_combos: { zapatillas: 'cam-azul' } } }) });
  assert.equal(
    (await soldOut.say('¿cuánto cuestan las zapatillas?')).suggestedCombo,
    null,
    'not a product out of stock',
  );
});

test('regla 5: no mientras se cotiza', async () => {
  const conv = new Conversation();
  const r = await conv.say('quiero 1 zapatillas');
  assert.equal(r.tipo, 'cotizacion');
  assert.equal(r.suggestedCombo, null);
});

test('regla 5: no cuando el producto no tiene stock', async () => {
  const conv = new Conversation();
  const r = await conv.say('¿cuánto cuesta la gorra trail?');
  assert.match(r.respuesta!, /no quedan unidades/);
  assert.equal(r.suggestedCombo, null);
});

test('regla 5: no cuando la respuesta ya termina en pregunta', async () => {
  const conv = new Conversation();
  const r = await conv.say('¿hacen envíos de las zapatillas?');
  assert.equal(r.respuesta, '¿A qué ciudad sería el envío?');
  assert.equal(r.suggestedCombo, null);
  assert.equal(r.closingPrompt, null);
});

test('regla 5: no cuando la respuesta ya nombra el combo', async () => {
  const products = (await import('./test-fixtures.js')).catalog();
  products[0].descripcion = 'Vienen con el kit Runner con medias';
  const conv = new Conversation({ products });
  const r = await conv.say('cuéntame de las zapatillas runner');
  assert.equal(r.suggestedCombo, null);
  assert.equal(r.respuesta!.split('kit Runner con medias').length, 2, 'named once, by the answer itself');
});

test('regla 5: cada combo una sola vez por conversación', async () => {
  const conv = new Conversation({ config: { mensajes_entre_combos: 0 } });
  assert.equal((await conv.say('¿cuánto cuestan las zapatillas?')).suggestedCombo, 'el kit Runner con medias');
  assert.equal((await conv.say('¿y cuántas quedan de las zapatillas?')).suggestedCombo, null);
  assert.equal((await conv.say('háblame de las zapatillas')).suggestedCombo, null);
});

test('regla 5: pasan los mensajes configurados entre dos sugerencias', async () => {
  const products = (await import('./test-fixtures.js')).catalog();
  products[4].stock = 2; // the cap now has stock, so its combo can be suggested
  const conv = new Conversation({ products, config: { mensajes_entre_combos: 2 } });
  assert.equal((await conv.say('¿cuánto cuestan las zapatillas?')).suggestedCombo, 'el kit Runner con medias'); // turn 1
  assert.equal((await conv.say('¿cuánto cuesta la gorra?')).suggestedCombo, null); // turn 2: 0 messages passed
  assert.equal((await conv.say('¿y la gorra cuántas quedan?')).suggestedCombo, null); // turn 3: 1 passed
  assert.equal((await conv.say('háblame de la gorra')).suggestedCombo, 'el combo Sol'); // turn 4: 2 passed
});

test('regla 6: pregunta de cierre por turnos cuando la respuesta no termina en pregunta', async () => {
  const conv = new Conversation({
    brand: brand({
      tacticas: {
        upsell_activo: false,
        preguntas_cierre: ['¿Te lo aparto?', '¿Quieres que te prepare una cotización?'],
      },
    }),
  });
  assert.equal((await conv.say('¿cuánto cuestan las medias?')).closingPrompt, '¿Te lo aparto?');
  assert.equal((await conv.say('¿y la camiseta roja?')).closingPrompt, '¿Quieres que te prepare una cotización?');
  assert.equal((await conv.say('¿cuántas quedan de medias?')).closingPrompt, '¿Te lo aparto?');
  const asks = await conv.say('¿tienen camisetas?'); // ambiguous: the answer is already a question
  assert.ok(asks.respuesta!.endsWith('¿Cuál te interesa?'));
  assert.equal(asks.closingPrompt, null);
  const r = await conv.say('¿cuánto cuestan las zapatillas?');
  assert.ok(r.respuesta!.endsWith('¿Quieres que te prepare una cotización?'));
});

test('regla 6: las preguntas por la ciudad se saltan cuando la ciudad ya se conoce', async () => {
  const conv = new Conversation({ brand: brand({ tacticas: { upsell_activo: false } }) });
  assert.equal((await conv.say('¿cuánto cuestan las medias?')).closingPrompt, '¿A qué ciudad te lo enviamos?');
  assert.equal((await conv.say('Medellín')).closingPrompt, '¿Quieres que te prepare una cotización?');
  assert.equal(conv.state.ciudad, 'Medellín');
  assert.equal((await conv.say('¿y las zapatillas?')).closingPrompt, '¿Quieres que te prepare una cotización?');
});

test('regla 6: nunca al despedirse ni al derivar a una persona', async () => {
  const conv = new Conversation();
  const bye = await conv.say('gracias, eso es todo');
  assert.equal(bye.tipo, 'despedida');
  assert.equal(bye.closingPrompt, null);
  assert.ok(!bye.respuesta!.includes('?'));
  const handoff = await conv.say('quiero hablar con una persona');
  assert.equal(handoff.tipo, 'derivacion');
  assert.equal(handoff.closingPrompt, null);
  assert.ok(!handoff.respuesta!.includes('?'));
});

test('regla 7: si la marca falla se usa la última marca conocida', async () => {
  const conv = new Conversation();
  assert.equal((await conv.say('hola')).marca.origen, 'fresca');
  conv.source.mode = 'error';
  conv.clock.advance(MAX_BRAND_TTL_MS + 1);
  const r = await conv.say('¿cuánto cuestan las zapatillas?');
  assert.equal(r.marca.origen, 'ultima_conocida');
  assert.equal(r.marca.aplicada, true);
  assert.equal(r.descripcion, PERSONA);
  assert.match(r.respuesta!, /250\.000 COP/);
});

test('regla 7: sin marca previa y con la marca caída o colgada, descripción propia y siempre una respuesta', async () => {
  for (const mode of ['error', 'hang'] as const) {
    const conv = new Conversation();
    conv.source.mode = mode;
    const r = await conv.say('hola, ¿cuánto cuestan las zapatillas?');
    assert.equal(r.marca.origen, 'ninguna', mode);
    assert.equal(r.marca.aplicada, false);
    assert.match(r.descripcion, /^Eres el asistente de ventas/);
    assert.match(
      r.respuesta!,
      /^¡Hola! Soy el asistente de ventas de la tienda\. El precio de las zapatillas Runner es 250\.000 COP\.$/,
    );
  }
});

test('regla 8: un cambio de marca llega a las conversaciones en menos de un minuto', async () => {
  const conv = new Conversation();
  assert.match((await conv.say('hola')).respuesta!, /Sofía/);
  conv.source.current = { ...brand(), identidad: { nombre_agente: 'Mateo', rol: 'asesor de ventas', linea: '' } };
  conv.clock.advance(60_000);
  conv.state.saludado = false; // greet again to see the presentation
  const r = await conv.say('hola');
  assert.match(r.respuesta!, /Soy Mateo, asesor de ventas en Deportes Ruiz/);

  // Whatever TTL is configured, the cache never serves a brand older than one minute.
  const clock = new FakeClock();
  const source = new FakeBrandSource(brand());
  const cache = new BrandCache(source, clock, { ttlMs: 10 * 60_000 });
  await cache.get('e');
  source.current = brand({ activo: false });
  clock.advance(MAX_BRAND_TTL_MS);
  assert.equal((await cache.get('e')).brand!.activo, false);
});

test('regla 7: un proveedor de marca que rechaza o un fallo interno no dejan sin respuesta', async () => {
  const rejecting = new Conversation({ deps: { brands: { get: () => Promise.reject(new Error('x')) } } });
  const r = await rejecting.say('¿cuánto cuestan las medias?');
  assert.equal(r.respuesta, 'El precio de las medias deportivas es 15.000 COP.');
  const events: string[] = [];
  const broken = new Conversation({
    deps: { catalog: { products: () => [null as never] }, onEvent: (e) => events.push(e.tipo) },
  });
  const b = await broken.say('hola');
  assert.ok(b.respuesta !== null && b.respuesta.length > 0);
  assert.ok(events.includes('error_interno'));
});
