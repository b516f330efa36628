import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { filesForm, GUIDE_MD, waitIndexed } from './support/rag.js';

/** The wire shapes these tests read (the OpenAPI response tests check them field for field). */
interface Turn {
  turno: number;
  pregunta: string;
  respuesta: { texto: string; encontrada: boolean | null; cache: boolean | null };
  valoracion: { valoracion: string; comentario: string | null };
}
interface Summary {
  id: string;
  turnos: number;
  primera_pregunta: string;
  sin_respuesta: number;
}

test('conversations read back with their turns, answers, sources, cache flag and ratings; newest first, by date', async (t) => {
  const h = await startTestHost(t, { credits: 100 });
  await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: filesForm({ 'guia.md': GUIDE_MD }) });
  await waitIndexed(h.client, h.spaceId);
  const base = `/rag/${h.spaceId}/conversations`;
  const ask = async (pregunta: string, conversacion?: string) => {
    const res = await h.client.post(base, {
      key: h.readKey,
      json: { pregunta, ...(conversacion ? { conversacion } : {}) },
    });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  const first = await ask('¿Cómo actualizo el sistema?');
  const followUp = await ask('¿Cuál es la capital de Mongolia?', first.conversacion);
  assert.equal(followUp.encontrada, false);
  const second = await ask('¿Cómo actualizo el sistema?'); // a new conversation, served by the cache

  const one = await h.client.get(`${base}/${first.conversacion}`, { key: h.readKey });
  assert.equal(one.status, 200, one.text);
  assert.equal(one.body.id, first.conversacion);
  assert.deepEqual(
    one.body.turnos.map((turn: Turn) => [turn.turno, turn.pregunta, turn.respuesta.encontrada, turn.respuesta.cache]),
    [
      [1, '¿Cómo actualizo el sistema?', true, false],
      [2, '¿Cuál es la capital de Mongolia?', false, false],
    ],
  );
  const turn1 = one.body.turnos[0];
  assert.equal(turn1.respuesta.texto, first.respuesta);
  assert.deepEqual(turn1.respuesta.fuentes, first.fuentes, 'the sources as the question returned them');
  assert.equal(turn1.respuesta.relevancia, Math.max(...first.fuentes.map((s: { puntuacion: number }) => s.puntuacion)));
  assert.equal(turn1.valoracion, null);
  const cached = (await h.client.get(`${base}/${second.conversacion}`)).body.turnos[0].respuesta;
  assert.equal(cached.cache, true);

  // Newest first; paged like the documents list.
  const list = await h.client.get(base, { key: h.readKey });
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.total, 2);
  assert.deepEqual(
    list.body.conversaciones.map((c: Summary) => [c.id, c.turnos, c.primera_pregunta, c.sin_respuesta]),
    [
      [second.conversacion, 1, '¿Cómo actualizo el sistema?', 0],
      [first.conversacion, 2, '¿Cómo actualizo el sistema?', 1],
    ],
  );
  const page = await h.client.get(`${base}?limite=1&desde=1`);
  assert.deepEqual([page.body.total, page.body.limite, page.body.desde], [2, 1, 1]);
  assert.deepEqual(
    page.body.conversaciones.map((c: Summary) => c.id),
    [first.conversacion],
  );

  // By date: today's day includes them all; from tomorrow, none; an impossible date is a 422 naming the field.
  const today = new Date().toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  assert.equal((await h.client.get(`${base}?fecha_desde=${today}&fecha_hasta=${today}`)).body.total, 2);
  assert.equal((await h.client.get(`${base}?fecha_desde=${tomorrow}`)).body.total, 0);
  assert.equal((await h.client.get(`${base}?fecha_hasta=${today}T00:00:00Z`)).body.total, 0);
  for (const bad of ['2026-02-31', 'ayer', '2026-11-27T25:00:00Z']) {
    const res = await h.client.get(`${base}?fecha_desde=${bad}`);
    assert.equal(res.status, 422, `${bad}: ${res.text}`);
    assert.deepEqual(res.body.detail[0].loc, ['query', 'fecha_desde']);
  }

  // Rating a turn with the read key: stored, shown in the conversation, replaced by a second rating.
  const rateUrl = `${base}/${first.conversacion}/valoracion`;
  const rated = await h.client.post(rateUrl, {
    key: h.readKey,
    json: { turno: 2, valoracion: 'negativa', comentario: '  Falta el horario de atención. ' },
  });
  assert.equal(rated.status, 200, rated.text);
  assert.deepEqual(
    [rated.body.turno, rated.body.valoracion, rated.body.comentario],
    [2, 'negativa', 'Falta el horario de atención.'],
  );
  await h.client.post(rateUrl, { json: { turno: 1, valoracion: 'negativa' } });
  const again = await h.client.post(rateUrl, { json: { turno: 1, valoracion: 'positiva' } });
  assert.deepEqual([again.body.valoracion, again.body.comentario], ['positiva', null]);
  const shown = (await h.client.get(`${base}/${first.conversacion}`)).body.turnos;
  assert.deepEqual(
    shown.map((turn: Turn) => [turn.valoracion.valoracion, turn.valoracion.comentario]),
    [
      ['positiva', null],
      ['negativa', 'Falta el horario de atención.'],
    ],
  );
  const summary = (await h.client.get(base)).body.conversaciones.find((c: Summary) => c.id === first.conversacion);
  assert.deepEqual(summary.valoraciones, { positivas: 1, negativas: 1 });

  // A turn that does not exist, a conversation that does not, bad bodies.
  const noTurn = await h.client.post(rateUrl, { json: { turno: 3, valoracion: 'positiva' } });
  assert.equal(noTurn.status, 404);
  assert.equal(noTurn.body.codigo, 'not_found');
  assert.equal(
    (await h.client.post(`${base}/conv_nada/valoracion`, { json: { turno: 1, valoracion: 'positiva' } })).status,
    404,
  );
  assert.equal((await h.client.get(`${base}/conv_nada`)).status, 404);
  for (const json of [
    { turno: 1, valoracion: 'buena' },
    { turno: 0, valoracion: 'positiva' },
    { valoracion: 'positiva' },
  ]) {
    const res = await h.client.post(rateUrl, { json });
    assert.equal(res.status, 422, JSON.stringify(json));
    assert.equal(res.body.codigo, 'validation_failed');
  }
});

test('unanswered questions are grouped by their normalised text with counts, the latest wording and date', async (t) => {
  const h = await startTestHost(t, { credits: 100 });
  await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: filesForm({ 'guia.md': GUIDE_MD }) });
  await waitIndexed(h.client, h.spaceId);
  const url = `/rag/${h.spaceId}/preguntas_sin_respuesta`;
  assert.deepEqual((await h.client.get(url)).body, { preguntas: [], total: 0, limite: 20, desde: 0 });

  const ask = async (pregunta: string) =>
    (await h.client.post(`/rag/${h.spaceId}/conversations`, { key: h.readKey, json: { pregunta } })).body;
  await ask('¿Cuál es el horario de atención?');
  await ask('Cómo instalo Debian'); // answered: never listed
  await ask('¿Cuál es la capital de Mongolia?');
  // Asked live (server-sent events): recorded the same way.
  const streamed = await fetch(`${h.url}/api/rag/${h.spaceId}/conversations/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.readKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ pregunta: 'Cuál es el horario de atención' }),
  });
  const streamedConversation = /"conversacion":"([^"]+)"/.exec(await streamed.text())![1]!;
  const recorded = (await h.client.get(`/rag/${h.spaceId}/conversations/${streamedConversation}`)).body.turnos[0];
  assert.deepEqual([recorded.pregunta, recorded.respuesta.encontrada], ['Cuál es el horario de atención', false]);
  const last = await ask('cual es el HORARIO de atencion');
  assert.equal(last.encontrada, false);

  const res = await h.client.get(url, { key: h.readKey });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.total, 2);
  const [top, other] = res.body.preguntas;
  assert.deepEqual(
    [top.pregunta, top.veces, top.conversacion],
    ['cual es el HORARIO de atencion', 3, last.conversacion],
  );
  assert.match(top.ultima, /^\d{4}-\d{2}-\d{2}T/);
  assert.deepEqual([other.pregunta, other.veces], ['¿Cuál es la capital de Mongolia?', 1]);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  assert.equal((await h.client.get(`${url}?fecha_desde=${tomorrow}`)).body.total, 0);
  assert.equal((await h.client.get(`${url}?limite=1`)).body.preguntas.length, 1);
});

test('the conversation routes are in the OpenAPI document with their query, body and answer schemas', async (t) => {
  const h = await startTestHost(t);
  const doc = (await h.client.get('/openapi.json', { key: null })).body;
  const list = doc.paths['/rag/{espacio}/conversations'].get;
  assert.ok(list.parameters.some((p: { name: string; in: string }) => p.name === 'fecha_desde' && p.in === 'query'));
  assert.ok(list.responses['200'].content['application/json'].schema.properties.conversaciones);
  const rate = doc.paths['/rag/{espacio}/conversations/{conversacion}/valoracion'].post;
  assert.deepEqual(rate.requestBody.content['application/json'].schema.required, ['turno', 'valoracion']);
  assert.ok(doc.paths['/rag/{espacio}/preguntas_sin_respuesta'].get.responses['200']);
});
