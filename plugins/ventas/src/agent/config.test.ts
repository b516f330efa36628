import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyLeadsConfigPatch, defaultLeadsConfig, leadsConfigFromStored } from './config.js';
import { conversationStateFromStored, newConversationState } from './state.js';
import { validateProduct } from './catalog.js';

test('leads-config: marca_activa off by default, PATCH changes only what is sent', () => {
  assert.equal(defaultLeadsConfig().marca_activa, false);
  const r = applyLeadsConfigPatch(defaultLeadsConfig(), { marca_activa: true });
  assert.ok(r.ok);
  assert.deepEqual(r.ok && r.config, { ...defaultLeadsConfig(), marca_activa: true });
});

test('leads-config: errors name the field in Spanish', () => {
  const r = applyLeadsConfigPatch(defaultLeadsConfig(), { marca_activa: 'si', mensajes_entre_combos: -1, otro: 1 });
  assert.equal(r.ok, false);
  assert.equal(
    !r.ok && r.detail,
    'marca_activa: debe ser verdadero o falso (true/false); mensajes_entre_combos: debe ser un número entero entre 0 y 50; otro: campo desconocido',
  );
  assert.deepEqual(leadsConfigFromStored({ derivar_tras_fallos: 3 }), {
    ...defaultLeadsConfig(),
    derivar_tras_fallos: 3,
  });
});

test('stored conversation state round-trips through JSON', () => {
  const s = { ...newConversationState(), ciudad: 'Cali', cotizacion: [{ productId: 'a', cantidad: 2 }] };
  assert.deepEqual(conversationStateFromStored(JSON.parse(JSON.stringify(s))), s);
  assert.deepEqual(conversationStateFromStored({ version: 99 }), newConversationState());
});

test('product validation names each bad field', () => {
  const r = validateProduct({
    id: 'a b',
    nombre: '',
    precio: 1.234,
    moneda: 'pesos',
    stock: -1,
    envio: { Cali: 'x' },
    color: 1,
  });
  assert.equal(r.ok, false);
  assert.deepEqual(!r.ok && r.errores.map((e) => e.campo), [
    'color',
    'id',
    'nombre',
    'precio',
    'moneda',
    'stock',
    'envio.Cali',
  ]);
});
