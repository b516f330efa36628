import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { filesForm, GUIDE_MD, waitIndexed } from './support/rag.js';

test('upload answers at once with each file and its state; indexing reports ready and failed with reasons', async (t) => {
  const h = await startTestHost(t);
  const latin1 = Buffer.from('Canción de prueba: el niño comió piña en el año nuevo.\n', 'latin1');
  const res = await h.client.post(`/rag/${h.spaceId}/load_documents`, {
    body: filesForm({ 'guia.md': GUIDE_MD, 'notas.txt': latin1, 'programa.exe': 'MZ\u0000binario', 'vacio.txt': '' }),
  });
  assert.equal(res.status, 202);
  assert.deepEqual(
    res.body.documentos.map((d: { nombre: string }) => d.nombre),
    ['guia.md', 'notas.txt', 'programa.exe', 'vacio.txt'],
  );
  assert.ok(
    res.body.documentos.every((d: { estado: string }) => ['en_cola', 'procesando', 'listo'].includes(d.estado)),
  );

  const status = await waitIndexed(h.client, h.spaceId);
  assert.equal(status.estado, 'listo');
  const byName = Object.fromEntries(status.documentos.map((d: { nombre: string }) => [d.nombre, d]));
  assert.equal(byName['guia.md'].estado, 'listo');
  assert.ok(byName['guia.md'].pasajes >= 3);
  assert.equal(byName['notas.txt'].estado, 'listo');
  assert.equal(byName['programa.exe'].estado, 'fallido');
  assert.match(byName['programa.exe'].error.motivo, /\S/);
  assert.equal(byName['vacio.txt'].estado, 'fallido');
  assert.deepEqual([status.total, status.listos, status.fallidos], [4, 2, 2]);

  const answer = await h.client.post(`/rag/${h.spaceId}/conversations`, { json: { pregunta: '¿Qué comió el niño?' } });
  assert.match(answer.body.respuesta, /piña/, 'Latin-1 text was decoded');
});

test('file names can never escape the space storage: paths, absolute names and unicode tricks are refused', async (t) => {
  const h = await startTestHost(t);
  const names = [
    '../../etc/passwd',
    '/etc/passwd',
    'C:\\Windows\\win.ini',
    'a\\..\\b.txt',
    'doc\uff0fsecreto.txt',
    'factura\u202etxt.exe',
    '..',
  ];
  const form = filesForm(Object.fromEntries(names.map((n) => [n, 'contenido'])));
  const res = await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: form });
  assert.equal(res.status, 202);
  for (const doc of res.body.documentos) {
    assert.equal(doc.estado, 'rechazado', doc.nombre);
    assert.equal(doc.error.codigo, 'nombre_no_valido');
  }
  assert.equal((await h.client.get(`/rag/${h.spaceId}/documents`)).body.total, 0);
  // Whatever was sent, nothing but random-id files exists under the storage folder.
  const stored = await readdir(join(h.dataDir, 'documentos'), { recursive: true }).catch(() => []);
  assert.ok(
    stored.every((p) => /^[0-9a-f]{24}(\/[0-9a-f-]{36})?$/.test(String(p))),
    String(stored),
  );
  assert.equal((await h.client.get(`/rag/${h.spaceId}/documents/..%2F..%2Fcerebro.db`)).status, 404);
});

test('the same name replaces the document; list is paginated; download returns the original bytes; delete works', async (t) => {
  const h = await startTestHost(t);
  const base = `/rag/${h.spaceId}`;
  await h.client.post(`${base}/load_documents`, {
    body: filesForm({
      'guía.md': '# Uno\n\nPrimera versión del texto.',
      'b.txt': 'Otro documento.',
      'c.csv': 'producto,precio\nmesa,10\n',
    }),
  });
  await waitIndexed(h.client, h.spaceId);
  const replaced = await h.client.post(`${base}/load_documents`, {
    body: filesForm({ 'guía.md': '# Dos\n\nSegunda versión del texto.' }),
  });
  assert.equal(replaced.body.documentos[0].version, 2);
  await waitIndexed(h.client, h.spaceId);

  const page1 = await h.client.get(`${base}/documents?limite=2`);
  assert.deepEqual([page1.body.total, page1.body.documentos.length, page1.body.limite, page1.body.desde], [3, 2, 2, 0]);
  const page2 = await h.client.get(`${base}/documents?limite=2&desde=2`);
  assert.equal(page2.body.documentos.length, 1);
  // Page after page in the listing's order (a page's documents are read together, then put in its order).
  const names = (page: { body: { documentos: { nombre: string }[] } }) => page.body.documentos.map((d) => d.nombre);
  const whole = names(await h.client.get(`${base}/documents?limite=50`));
  assert.deepEqual([...names(page1), ...names(page2)], whole);
  assert.deepEqual([...whole].sort(), ['b.txt', 'c.csv', 'guía.md']);
  assert.equal((await h.client.get(`${base}/documents?limite=0`)).status, 422);

  const download = await h.client.get(`${base}/documents/${encodeURIComponent('guía.md')}`, { key: h.readKey });
  assert.equal(download.status, 200);
  assert.equal(download.text, '# Dos\n\nSegunda versión del texto.');
  assert.equal(download.headers.get('content-type'), 'text/markdown');
  assert.match(download.headers.get('content-disposition')!, /filename\*=UTF-8''gu%C3%ADa\.md/);
  assert.equal(download.headers.get('x-content-type-options'), 'nosniff', 'one header line (it was sent twice)');

  const removed = await h.client.delete(`${base}/documents/b.txt`);
  assert.deepEqual(removed.body, { eliminado: 'b.txt' });
  assert.equal((await h.client.delete(`${base}/documents/b.txt`)).status, 404);
  assert.equal((await h.client.get(`${base}/documents/b.txt`)).status, 404);
  assert.equal((await h.client.get(`${base}/documents`)).body.total, 2);
});

test('documents are strictly scoped to their space', async (t) => {
  const h = await startTestHost(t);
  await h.admin.createSpace({ id: 'otro', ownerId: h.ownerId, modules: ['api'] });
  await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: filesForm({ 'guia.md': GUIDE_MD }) });
  await waitIndexed(h.client, h.spaceId);
  assert.equal((await h.client.get('/rag/otro/documents')).body.total, 0);
  assert.equal((await h.client.get('/rag/otro/documents/guia.md')).status, 404);
  const answer = await h.client.post('/rag/otro/conversations', { json: { pregunta: '¿Cómo actualizo el sistema?' } });
  assert.equal(answer.body.encontrada, false);
  assert.deepEqual(answer.body.fuentes, []);
});

test('upload limits: oversized file 413, no file 422, not multipart 415, read key 403', async (t) => {
  const h = await startTestHost(t, { env: { CEREBRO_DOC_MAX_BYTES: '1000' } });
  const base = `/rag/${h.spaceId}`;
  const big = await h.client.post(`${base}/load_documents`, { body: filesForm({ 'grande.txt': 'x'.repeat(5000) }) });
  assert.equal(big.status, 413);
  const none = new FormData();
  none.append('nota', 'sin archivo');
  const empty = await h.client.post(`${base}/load_documents`, { body: none });
  assert.equal(empty.status, 422);
  assert.deepEqual(empty.body.detail[0].loc, ['body', 'archivos']);
  assert.equal((await h.client.post(`${base}/load_documents`, { json: { a: 1 } })).status, 415);
  assert.equal(
    (await h.client.post(`${base}/load_documents`, { key: h.readKey, body: filesForm({ 'a.txt': 'a' }) })).status,
    403,
  );
  assert.equal((await h.client.get(`${base}/documents`)).body.total, 0);
  // Uploads live in a per-process folder under tmp/ (see process-temp-dir.ts): none may be left in it.
  const tmp = (await readdir(join(h.dataDir, 'tmp'), { recursive: true })).filter((p) => p.includes('upload-'));
  assert.deepEqual(tmp, [], 'no temporary upload left behind');
});
