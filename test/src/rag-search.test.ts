import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { filesForm, GUIDE_MD, waitIndexed } from './support/rag.js';

const OTHER_MD = `# Red doméstica

Para configurar la red del router abre su página de administración y cambia la contraseña de la red wifi.
`;

test('buscar: ranked passages with their document, section and score, free of credits, answering nothing', async (t) => {
  const h = await startTestHost(t, { credits: 5 });
  await h.client.post(`/rag/${h.spaceId}/load_documents`, {
    body: filesForm({ 'guia.md': GUIDE_MD, 'casa.md': OTHER_MD }),
  });
  await waitIndexed(h.client, h.spaceId);
  const balance = async () => (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.saldo;
  const url = `/rag/${h.spaceId}/buscar`;

  const res = await h.client.post(url, { key: h.readKey, json: { pregunta: '¿Cómo actualizo el sistema?' } });
  assert.equal(res.status, 200);
  const first = res.body.pasajes[0];
  assert.deepEqual(
    [first.posicion, first.documento, first.seccion, first.pagina, first.origen],
    [1, 'guia.md', 'Actualización', null, null],
  );
  assert.match(first.texto, /apt update/);
  assert.ok(first.puntuacion > 0);
  assert.match(first.documento_id, /\S/);
  // Best first, positions in order.
  const scores = res.body.pasajes.map((p: { puntuacion: number }) => p.puntuacion);
  assert.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
  );
  assert.deepEqual(
    res.body.pasajes.map((p: { posicion: number }) => p.posicion),
    res.body.pasajes.map((_: unknown, i: number) => i + 1),
  );

  // Same ranking as asking: the answer's first source is the first passage found.
  const answer = await h.client.post(`/rag/${h.spaceId}/conversations`, {
    json: { pregunta: '¿Cómo actualizo el sistema?' },
  });
  assert.equal(answer.body.fuentes[0].pasaje, first.pasaje);
  assert.equal(await balance(), 4, 'only the question cost a credit');

  // `documentos` narrows, `limite` caps.
  const red = await h.client.post(url, { json: { pregunta: 'configurar la red', documentos: ['casa.md'] } });
  assert.ok(red.body.pasajes.length > 0);
  assert.ok(red.body.pasajes.every((p: { documento: string }) => p.documento === 'casa.md'));
  const one = await h.client.post(url, { json: { pregunta: 'red', limite: 1 } });
  assert.equal(one.body.pasajes.length, 1);

  // Nothing relevant: an empty list, not an error.
  const none = await h.client.post(url, { json: { pregunta: 'capital de Mongolia' } });
  assert.deepEqual(none.body.pasajes, []);

  // Bad input is a 422 naming the field; a blank question too.
  const bad = await h.client.post(url, { json: { pregunta: 'x', limite: 500, otro: 1 } });
  assert.equal(bad.status, 422);
  assert.equal(bad.body.codigo, 'validation_failed');
  const blank = await h.client.post(url, { json: { pregunta: '   ' } });
  assert.equal(blank.status, 422);
  assert.equal(await balance(), 4, 'searches never debit the pool');
});

test('buscar is declared free in the OpenAPI document, with its body and answer schemas', async (t) => {
  const h = await startTestHost(t);
  const doc = (await h.client.get('/openapi.json', { key: null })).body;
  const op = doc.paths['/rag/{espacio}/buscar'].post;
  assert.equal(op['x-cerebro-creditos'], 0);
  assert.ok(op.requestBody.content['application/json'].schema.properties.documentos);
  assert.ok(op.responses['200'].content['application/json'].schema.properties.pasajes);
});
