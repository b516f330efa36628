import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { filesForm, GUIDE_MD, waitIndexed } from './support/rag.js';

async function withGuide(t: { after(fn: () => unknown): void }, credits = 100): Promise<TestHost> {
  const h = await startTestHost(t, { credits });
  await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: filesForm({ 'guia.md': GUIDE_MD }) });
  await waitIndexed(h.client, h.spaceId);
  return h;
}

test('an answer comes from the documents with its sources; an unknown question says so plainly', async (t) => {
  const h = await withGuide(t);
  const res = await h.client.post(`/rag/${h.spaceId}/conversations`, {
    key: h.readKey,
    json: { pregunta: '¿Cómo actualizo el sistema?' },
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.encontrada, true);
  assert.match(res.body.respuesta, /apt update/);
  assert.equal(res.body.fuentes[0].documento, 'guia.md');
  assert.equal(res.body.fuentes[0].seccion, 'Actualización');
  assert.ok(res.body.fuentes[0].puntuacion > 0);
  assert.match(res.body.conversacion, /^conv_/);

  const unknown = await h.client.post(`/rag/${h.spaceId}/conversations`, {
    json: { pregunta: '¿Cuál es la capital de Mongolia?' },
  });
  assert.deepEqual(
    [unknown.body.encontrada, unknown.body.respuesta, unknown.body.fuentes],
    [false, 'No encuentro esa información en los documentos disponibles.', []],
  );
});

test('config: GET shows defaults, PATCH is validated and partial, and changes the no-answer text', async (t) => {
  const h = await withGuide(t);
  const url = `/rag/${h.spaceId}/config`;
  const defaults = (await h.client.get(url, { key: h.readKey })).body;
  assert.equal(defaults.pasajes, 5);
  const bad = await h.client.patch(url, { json: { pasajes: 50, longitud: 'enorme', otro: true } });
  assert.equal(bad.status, 422);
  assert.equal(bad.body.detail.length, 3);
  const ok = await h.client.patch(url, { json: { texto_sin_respuesta: 'Eso no está en la guía.' } });
  assert.deepEqual(ok.body, { ...defaults, texto_sin_respuesta: 'Eso no está en la guía.' });
  const res = await h.client.post(`/rag/${h.spaceId}/conversations`, {
    json: { pregunta: '¿Cuál es la capital de Mongolia?' },
  });
  assert.equal(res.body.respuesta, 'Eso no está en la guía.');
  assert.equal((await h.client.patch(url, { key: h.readKey, json: { citas: false } })).status, 403);
});

test('cache: an identical normalised question is served from the cache for free; document and config changes invalidate it', async (t) => {
  const h = await withGuide(t, 10);
  const ask = (pregunta: string) => h.client.post(`/rag/${h.spaceId}/conversations`, { json: { pregunta } });
  const balance = async () => (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.saldo;
  const first = await ask('¿Cómo actualizo el sistema?');
  assert.deepEqual([first.body.cache, first.body.creditos, await balance()], [false, 1, 9]);
  const second = await ask('como   ACTUALIZO el sistema');
  assert.deepEqual(
    [second.body.cache, second.body.creditos, second.body.respuesta, await balance()],
    [true, 0, first.body.respuesta, 9],
  );

  await h.client.post(`/rag/${h.spaceId}/load_documents`, {
    body: filesForm({ 'extra.txt': 'Texto nuevo sin relación.' }),
  });
  await waitIndexed(h.client, h.spaceId);
  assert.equal((await ask('¿Cómo actualizo el sistema?')).body.cache, false);
  assert.equal((await ask('¿Cómo actualizo el sistema?')).body.cache, true);
  await h.client.patch(`/rag/${h.spaceId}/config`, { json: { longitud: 'larga' } });
  assert.equal((await ask('¿Cómo actualizo el sistema?')).body.cache, false);
  const cleared = await h.client.delete(`/rag/${h.spaceId}/clear_cache`);
  assert.deepEqual(cleared.body, { eliminadas: 1 });
  assert.equal((await ask('¿Cómo actualizo el sistema?')).body.cache, false);
  assert.equal((await h.client.delete(`/rag/${h.spaceId}/clear_cache`, { key: h.readKey })).status, 403);
});

test('credits: each question costs one credit; an empty pool answers 402 before any work', async (t) => {
  const h = await withGuide(t, 1);
  assert.equal(
    (await h.client.post(`/rag/${h.spaceId}/conversations`, { json: { pregunta: '¿Cómo instalo Debian?' } })).status,
    200,
  );
  const res = await h.client.post(`/rag/${h.spaceId}/conversations`, {
    json: { pregunta: '¿Dónde se guarda la red?' },
  });
  assert.equal(res.status, 402);
  const bad = await h.client.post(`/rag/${h.spaceId}/conversations`, { json: { pregunta: '' } });
  assert.equal(bad.status, 422);
});

test('a conversation continues by id; an id from another space is 404', async (t) => {
  const h = await withGuide(t);
  const first = await h.client.post(`/rag/${h.spaceId}/conversations`, { json: { pregunta: '¿Cómo instalo Debian?' } });
  const follow = await h.client.post(`/rag/${h.spaceId}/conversations`, {
    json: { pregunta: '¿Y cómo lo actualizo?', conversacion: first.body.conversacion },
  });
  assert.equal(follow.status, 200);
  assert.equal(follow.body.conversacion, first.body.conversacion);
  await h.admin.createSpace({ id: 'otro', ownerId: h.ownerId, modules: ['api'] });
  const foreign = await h.client.post('/rag/otro/conversations', {
    json: { pregunta: 'hola', conversacion: first.body.conversacion },
  });
  assert.equal(foreign.status, 404);
});

test('the live stream sends inicio, texto, fuentes once, then fin; unbuffered by proxies', async (t) => {
  const h = await withGuide(t);
  const res = await fetch(`${h.url}/api/rag/${h.spaceId}/conversations/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.readKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ pregunta: '¿Cómo actualizo el sistema?' }),
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /^text\/event-stream/);
  assert.equal(res.headers.get('x-accel-buffering'), 'no');
  const text = await res.text();
  const events = [...text.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map((m) => ({
    name: m[1]!,
    data: JSON.parse(m[2]!),
  }));
  const names = events.map((e) => e.name);
  assert.equal(names[0], 'inicio');
  assert.deepEqual(names.slice(-2), ['fuentes', 'fin']);
  assert.equal(names.filter((n) => n === 'fuentes').length, 1);
  const streamed = events
    .filter((e) => e.name === 'texto')
    .map((e) => e.data.delta)
    .join('');
  const fin = events.at(-1)!.data;
  assert.equal(streamed, fin.respuesta);
  assert.match(fin.respuesta, /apt update/);
  assert.equal(fin.creditos, 1);
  const sources = events.find((e) => e.name === 'fuentes')!.data.fuentes;
  assert.equal(sources[0].citada, true);
  assert.deepEqual(sources, fin.fuentes);
});

const COMMANDS_HTML = `<html><head><title>Órdenes del sistema</title></head><body><h1>Órdenes del sistema</h1>
<h2>Paquetes</h2>
<p>Para instalar un paquete .deb descargado, use la siguiente orden:</p>
<pre class="screen"># dpkg -i paquete.deb</pre>
<h2>Reloj</h2>
<table summary="Órdenes del reloj"><thead><tr><th>orden</th><th>acción</th></tr></thead><tbody>
<tr><td><code>date</code></td><td>muestra la fecha y la hora del sistema</td></tr>
<tr><td><code>hwclock -r</code></td><td>lee el reloj del hardware</td></tr>
<tr><td><code>timedatectl set-timezone Europe/Madrid</code></td><td>cambia la zona horaria</td></tr>
</tbody></table>
<h2>Disco</h2><p>El espacio libre del disco se consulta con la orden df, que lista cada sistema de archivos montado.</p>
</body></html>`;

test('a how-to answer quotes the command in backticks with its introduction; a table answer quotes the row with its header; fuentes mark what was cited', async (t) => {
  const h = await startTestHost(t, { credits: 100 });
  await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: filesForm({ 'ordenes.html': COMMANDS_HTML }) });
  await waitIndexed(h.client, h.spaceId);
  const ask = async (pregunta: string) =>
    (await h.client.post(`/rag/${h.spaceId}/conversations`, { json: { pregunta } })).body;

  const install = await ask('¿Cómo instalo un paquete .deb que descargué?');
  assert.equal(install.encontrada, true);
  assert.match(install.respuesta, /use la siguiente orden: `# dpkg -i paquete\.deb` \[1\]/);
  assert.equal(install.fuentes[0].citada, true);

  const clock = await ask('¿Qué orden muestra la hora del sistema?');
  assert.match(
    clock.respuesta,
    /orden `date` — acción: muestra la fecha y la hora del sistema, según la tabla «Órdenes del reloj» \[1\]/,
  );
  assert.doesNotMatch(clock.respuesta, /hwclock/);
  assert.equal(clock.fuentes[0].seccion, 'Órdenes del sistema › Reloj › Órdenes del reloj');
  assert.deepEqual(
    clock.fuentes.map((f: { n: number; citada: boolean }) => f.n),
    clock.fuentes.map((_: unknown, i: number) => i + 1),
  );
  // Cited passages first, then any other relevant ones, never a cited one after an uncited one.
  const flags = clock.fuentes.map((f: { citada: boolean }) => f.citada);
  assert.deepEqual(
    flags,
    [...flags].sort((a: boolean, b: boolean) => Number(b) - Number(a)),
  );
});
