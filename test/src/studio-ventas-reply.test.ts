// Studio's reply as a person into a handed-off ventas conversation, through the console cookie (issue #14).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { browserRequest, signIn, withPassword } from './support/studio.js';

test('from the console: filter handed-off conversations, reply as a person (CSRF required), hand back to the agent', async (t) => {
  const h = await startTestHost(t, { discover: true });
  await withPassword(h);
  const s = await signIn(h.url);
  const base = `/api/mod/ventas/${h.spaceId}`;
  const lead = await h.client.post(`/mod/ventas/${h.spaceId}/conversaciones`, {
    json: { mensaje: 'me pasas con un asesor humano por favor' },
  });
  assert.equal(lead.status, 200, lead.text);
  assert.equal(lead.body.estado, 'derivada');
  const other = await h.client.post(`/mod/ventas/${h.spaceId}/conversaciones`, { json: { mensaje: 'hola' } });
  assert.equal(other.body.estado, 'activa');

  const handedOff = await browserRequest(h.url, 'GET', `${base}/conversaciones?estado=derivada`, { cookie: s.cookie });
  assert.deepEqual(
    handedOff.body.conversaciones.map((c: { conversacion: string }) => c.conversacion),
    [lead.body.conversacion],
  );

  const path = `${base}/conversaciones/${lead.body.conversacion}/mensajes`;
  assert.equal(
    (await browserRequest(h.url, 'POST', path, { cookie: s.cookie, json: { texto: 'Hola, te atiendo yo' } })).status,
    403,
    'no CSRF token',
  );
  const sent = await browserRequest(h.url, 'POST', path, {
    cookie: s.cookie,
    csrf: s.csrf,
    json: { texto: 'Hola, te atiendo yo' },
  });
  assert.equal(sent.status, 201, sent.text);
  assert.equal(sent.body.rol, 'persona');

  const seenByApi = await h.client.get(`/mod/ventas/${h.spaceId}/conversaciones/${lead.body.conversacion}`);
  assert.deepEqual(seenByApi.body.mensajes.at(-1), {
    rol: 'persona',
    texto: 'Hola, te atiendo yo',
    tipo: null,
    fecha: sent.body.fecha,
  });
  const notHandedOff = await browserRequest(
    h.url,
    'POST',
    `${base}/conversaciones/${other.body.conversacion}/mensajes`,
    { cookie: s.cookie, csrf: s.csrf, json: { texto: 'x' } },
  );
  assert.equal(notHandedOff.status, 409);

  const back = await browserRequest(h.url, 'POST', `${base}/conversaciones/${lead.body.conversacion}/reanudar`, {
    cookie: s.cookie,
    csrf: s.csrf,
  });
  assert.equal(back.status, 200, back.text);
  assert.equal(back.body.estado, 'activa');
});
