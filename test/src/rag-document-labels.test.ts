import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { filesForm, GUIDE_MD, waitIndexed } from './support/rag.js';

const HOME_MD = `# Red doméstica

Para configurar la red del router abre su página de administración y cambia la contraseña de la red wifi.
`;
const OFFICE_MD = `# Red de la oficina

Para configurar la red de la oficina pide al administrador una cuenta y conecta el cable de red al puerto.
`;

/** An upload form with label fields beside the files. */
function labelledForm(files: Record<string, string>, fields: Record<string, string>): FormData {
  const form = filesForm(files);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

test('documents carry etiquetas and metadatos: set at upload, changed by PATCH, shown in lists and status', async (t) => {
  const h = await startTestHost(t);
  const base = `/rag/${h.spaceId}`;
  const up = await h.client.post(`${base}/load_documents`, {
    body: labelledForm(
      { 'casa.md': HOME_MD, 'oficina.md': OFFICE_MD },
      { etiquetas: '  Redes ,Soporte  Técnico, redes', metadatos: '{"area":"ti","año":2024,"publico":true}' },
    ),
  });
  assert.equal(up.status, 202);
  for (const d of up.body.documentos) {
    assert.deepEqual(d.etiquetas, ['redes', 'soporte técnico'], 'normalised, de-duplicated');
    assert.deepEqual(d.metadatos, { area: 'ti', año: 2024, publico: true });
  }
  // A field sent twice is refused whole (400, naming it), never one of its values silently kept; nothing is stored.
  const twice = labelledForm({ 'doble.md': HOME_MD }, { etiquetas: 'a' });
  twice.append('etiquetas', 'b');
  const refused = await h.client.post(`${base}/load_documents`, { body: twice });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.codigo, 'bad_request');
  assert.equal(
    refused.body.detail,
    'El campo «etiquetas» aparece más de una vez en el formulario; envíalo una sola vez.',
  );
  assert.equal((await h.client.get(`${base}/documents/doble.md`)).status, 404);
  // A file without label fields has none.
  await h.client.post(`${base}/load_documents`, { body: filesForm({ 'guia.md': GUIDE_MD }) });
  const status = await waitIndexed(h.client, h.spaceId);
  const guia = status.documentos.find((d: { nombre: string }) => d.nombre === 'guia.md');
  assert.deepEqual([guia.etiquetas, guia.metadatos], [[], {}]);

  // PATCH: etiquetas replaces, metadatos merges (null removes a key).
  const patched = await h.client.patch(`${base}/documents/oficina.md`, {
    json: { etiquetas: ['Oficina', 'redes'], metadatos: { publico: null, planta: 2 } },
  });
  assert.equal(patched.status, 200);
  assert.equal(patched.body.nombre, 'oficina.md');
  assert.deepEqual(patched.body.etiquetas, ['oficina', 'redes']);
  assert.deepEqual(patched.body.metadatos, { area: 'ti', año: 2024, planta: 2 });

  // Replacing a document by upload without label fields keeps its labels.
  await h.client.post(`${base}/load_documents`, { body: filesForm({ 'oficina.md': `${OFFICE_MD}\nNuevo.` }) });
  const list = await h.client.get(`${base}/documents`);
  const oficina = list.body.documentos.find((d: { nombre: string }) => d.nombre === 'oficina.md');
  assert.deepEqual(oficina.etiquetas, ['oficina', 'redes']);
  assert.equal(oficina.version, 2);

  // Filters: every tag, and metadata equality with types.
  const names = async (query: string) =>
    (await h.client.get(`${base}/documents?${query}`)).body.documentos.map((d: { nombre: string }) => d.nombre);
  assert.deepEqual(await names('etiquetas=redes'), ['casa.md', 'oficina.md']);
  assert.deepEqual(await names('etiquetas=REDES,oficina'), ['oficina.md']);
  assert.deepEqual(await names(`metadatos=${encodeURIComponent('{"planta":2}')}`), ['oficina.md']);
  assert.deepEqual(await names(`metadatos=${encodeURIComponent('{"planta":"2"}')}`), [], 'types count');
  assert.deepEqual(await names(`metadatos=${encodeURIComponent('{"publico":true}')}`), ['casa.md']);
  assert.deepEqual(await names('etiquetas=nada'), []);
  const paged = await h.client.get(`${base}/documents?etiquetas=redes&limite=1&desde=1`);
  assert.deepEqual(
    [paged.body.total, paged.body.documentos.length, paged.body.documentos[0].nombre],
    [2, 1, 'oficina.md'],
  );

  // Labels go with their document: a new upload under a deleted name starts without them.
  await h.client.delete(`${base}/documents/guia.md`);
  await h.client.patch(`${base}/documents/casa.md`, { json: { metadatos: { extra: 'x' } } });
  await h.client.delete(`${base}/documents/casa.md`);
  const fresh = await h.client.post(`${base}/load_documents`, { body: filesForm({ 'casa.md': HOME_MD }) });
  assert.deepEqual([fresh.body.documentos[0].etiquetas, fresh.body.documentos[0].metadatos], [[], {}]);

  // Errors: the catalogue's 404 and 422 bodies, nothing stored by a refused upload.
  const missing = await h.client.patch(`${base}/documents/nada.md`, { json: { etiquetas: ['x'] } });
  assert.deepEqual([missing.status, missing.body.codigo], [404, 'not_found']);
  for (const json of [
    { etiquetas: ['a,b'] },
    { etiquetas: ['   '] },
    { metadatos: { 'clave con espacios': 1 } },
    { metadatos: { x: { anidado: true } } },
    { metadatos: { x: 'y'.repeat(501) } },
    {},
    { otro: 1 },
  ]) {
    const bad = await h.client.patch(`${base}/documents/casa.md`, { json });
    assert.equal(bad.status, 422, JSON.stringify(json));
    assert.equal(bad.body.codigo, 'validation_failed');
    assert.ok(Array.isArray(bad.body.detail));
  }
  const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i]));
  assert.equal((await h.client.patch(`${base}/documents/casa.md`, { json: { metadatos: many } })).status, 422);
  const badUpload = await h.client.post(`${base}/load_documents`, {
    body: labelledForm({ 'otro.md': HOME_MD }, { metadatos: '{no es json' }),
  });
  assert.deepEqual([badUpload.status, badUpload.body.detail[0].loc], [422, ['body', 'metadatos']]);
  assert.equal((await h.client.get(`${base}/documents/otro.md`)).status, 404, 'a refused upload stores nothing');
  const badFilter = await h.client.get(`${base}/documents?metadatos=[1]`);
  assert.deepEqual([badFilter.status, badFilter.body.detail[0].loc], [422, ['query', 'metadatos']]);
  // A read key cannot change labels.
  assert.equal(
    (await h.client.patch(`${base}/documents/casa.md`, { key: h.readKey, json: { etiquetas: [] } })).status,
    403,
  );
});

test('asking and searching narrow to documentos and etiquetas; the answer cache keys on the narrowing', async (t) => {
  const h = await startTestHost(t, { credits: 50 });
  const base = `/rag/${h.spaceId}`;
  await h.client.post(`${base}/load_documents`, {
    body: labelledForm({ 'casa.md': HOME_MD }, { etiquetas: 'hogar' }),
  });
  await h.client.post(`${base}/load_documents`, {
    body: labelledForm({ 'oficina.md': OFFICE_MD }, { etiquetas: 'trabajo' }),
  });
  await waitIndexed(h.client, h.spaceId);
  const docsOf = (passages: { documento: string }[]) => [...new Set(passages.map((p) => p.documento))].sort();

  const all = await h.client.post(`${base}/buscar`, { json: { pregunta: 'configurar la red' } });
  assert.deepEqual(docsOf(all.body.pasajes), ['casa.md', 'oficina.md']);
  const work = await h.client.post(`${base}/buscar`, {
    json: { pregunta: 'configurar la red', etiquetas: ['Trabajo'] },
  });
  assert.deepEqual(docsOf(work.body.pasajes), ['oficina.md']);
  assert.deepEqual(
    work.body.pasajes.map((p: { posicion: number }) => p.posicion),
    work.body.pasajes.map((_: unknown, i: number) => i + 1),
  );
  const both = await h.client.post(`${base}/buscar`, {
    json: { pregunta: 'configurar la red', etiquetas: ['trabajo'], documentos: ['casa.md'] },
  });
  assert.deepEqual(both.body.pasajes, [], 'documentos and etiquetas intersect');
  const badTag = await h.client.post(`${base}/buscar`, { json: { pregunta: 'red', etiquetas: ['a,b'] } });
  assert.deepEqual([badTag.status, badTag.body.detail[0].loc], [422, ['body', 'etiquetas', 0]]);

  const ask = (json: object) =>
    h.client.post(`${base}/conversations`, { json: { pregunta: '¿Cómo configuro la red?', ...json } });
  const home = await ask({ etiquetas: ['hogar'] });
  assert.equal(home.status, 200);
  assert.ok(home.body.fuentes.length > 0);
  assert.ok(home.body.fuentes.every((f: { documento: string }) => f.documento === 'casa.md'));
  assert.equal(home.body.cache, false);
  // The same question narrowed otherwise is not served the first one's cached answer.
  const office = await ask({ documentos: ['oficina.md'] });
  assert.equal(office.body.cache, false);
  assert.ok(office.body.fuentes.every((f: { documento: string }) => f.documento === 'oficina.md'));
  const again = await ask({ etiquetas: ['HOGAR'] });
  assert.equal(again.body.cache, true, 'the same narrowing (normalised) hits the cache');
  assert.equal((await ask({})).body.cache, false, 'the whole space is another key');
  // Narrowed to nothing: no passages, the no-answer text.
  const nothing = await ask({ etiquetas: ['sin-documentos'] });
  assert.deepEqual([nothing.body.encontrada, nothing.body.fuentes], [false, []]);

  // Changing a document's tags empties the cache: narrowed answers may change.
  await h.client.patch(`${base}/documents/oficina.md`, { json: { etiquetas: ['hogar'] } });
  const after = await ask({ etiquetas: ['hogar'] });
  assert.equal(after.body.cache, false);

  // The stream narrows the same way.
  const res = await fetch(`${h.url}/api${base}/conversations/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.writeKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ pregunta: 'cambiar la contraseña del router', documentos: ['oficina.md'] }),
  });
  const text = await res.text();
  const fin = JSON.parse(/event: fin\ndata: (.*)/.exec(text)![1]!);
  assert.ok(fin.fuentes.every((f: { documento: string }) => f.documento === 'oficina.md'));
});

test('OpenAPI declares the labels: document fields, the PATCH route, list filters and narrowing', async (t) => {
  const h = await startTestHost(t);
  const doc = (await h.client.get('/openapi.json', { key: null })).body;
  const patch = doc.paths['/rag/{espacio}/documents/{archivo}'].patch;
  assert.ok(patch.requestBody.content['application/json'].schema.properties.metadatos);
  assert.ok(patch.responses['404']);
  const list = doc.paths['/rag/{espacio}/documents'].get;
  const params = list.parameters.map((p: { name: string }) => p.name);
  assert.ok(params.includes('etiquetas') && params.includes('metadatos'));
  for (const path of ['/rag/{espacio}/conversations', '/rag/{espacio}/buscar'])
    assert.ok(doc.paths[path].post.requestBody.content['application/json'].schema.properties.etiquetas, path);
});
