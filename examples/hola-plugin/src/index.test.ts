import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import hola from './index.js';

test('saluda al espacio con una clave de lectura', async (t) => {
  const h = await startTestHost(t, { plugins: [hola] });
  const res = await h.client.get(`/mod/hola/${h.spaceId}/saludo`, { key: h.readKey });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { saludo: `Hola, ${h.spaceId}` });
});

test('guardar cuesta 2 créditos y queda en el espacio; un texto en blanco o un campo de más no se cobra', async (t) => {
  const h = await startTestHost(t, { plugins: [hola], credits: 4 });
  const save = (texto: unknown, extra: Record<string, unknown> = {}) =>
    h.client.post(`/mod/hola/${h.spaceId}/saludos`, { json: { texto, ...extra } });
  assert.equal((await save('buenos días')).status, 201);
  assert.equal((await save('   ')).status, 422);
  assert.equal((await save('x', { otro: 1 })).status, 422);
  assert.equal((await save('buenas tardes')).status, 201, 'the refused requests cost nothing: 2 credits remain');
  assert.equal((await save('sin saldo')).status, 402);
  assert.deepEqual((await h.client.get(`/mod/hola/${h.spaceId}/saludos`)).body, {
    saludos: ['buenos días', 'buenas tardes'],
  });
});

test('una clave de lectura no puede guardar', async (t) => {
  const h = await startTestHost(t, { plugins: [hola] });
  const res = await h.client.post(`/mod/hola/${h.spaceId}/saludos`, { json: { texto: 'hola' }, key: h.readKey });
  assert.equal(res.status, 403);
});
