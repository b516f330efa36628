// The document viewer (`GET /rag/{espacio}/documents/{archivo}/pasajes`, issue #26 item 3): a document's passages as
// indexed, in order, with their sections and pages, OCR'd text marked, paged; other spaces and unknown names refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { imageOnlyPdf, scannedPage } from '../cerebro/testing/scanned.js';

interface ViewedPassage {
  pasaje: number;
  orden: number;
  seccion: string | null;
  secciones: string[];
  pagina: number | null;
  ocr: boolean;
  texto: string;
}

/** A Markdown guide of many sections, each its own passage. */
const GUIDE = [
  '# Manual de la tienda',
  ...Array.from({ length: 7 }, (_, i) =>
    [`## Sección ${i + 1}`, `El apartado número ${i + 1} explica la norma ${i + 1} de la tienda con detalle.`].join(
      '\n\n',
    ),
  ),
].join('\n\n');

test('a document is read a page of passages at a time, in order, with its sections; 404 and 422 where due', async (t) => {
  const h = await startTestHost(t);
  const form = new FormData();
  form.append('archivos', new Blob([GUIDE]), 'manual.md');
  assert.equal((await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: form })).status, 202);
  await h.waitForIndexing(60_000);
  const path = `/rag/${h.spaceId}/documents/manual.md/pasajes`;

  const all = await h.client.get(`${path}?limite=100`, { key: h.readKey });
  assert.equal(all.status, 200, all.text);
  const passages = all.body.pasajes as ViewedPassage[];
  assert.equal(all.body.total, passages.length);
  assert.ok(passages.length >= 7, `one passage per section at least (${passages.length})`);
  assert.deepEqual(
    passages.map((p) => p.orden),
    passages.map((_, i) => i + 1),
    'in document order',
  );
  const third = passages.find((p) => p.texto.includes('norma 3 '))!;
  assert.deepEqual(third.secciones, ['Manual de la tienda', 'Sección 3']);
  assert.equal(third.seccion, 'Manual de la tienda › Sección 3');
  assert.equal(third.pagina, null);
  assert.equal(third.ocr, false);
  assert.deepEqual(Object.keys(all.body.documento).sort(), ['estado', 'id', 'nombre', 'paginas']);
  assert.equal(all.body.documento.estado, 'listo');

  // Pages: the default is 20, `desde` moves through them, past the end is an empty page with the total.
  const first = await h.client.get(`${path}?limite=3`);
  assert.deepEqual([first.body.limite, first.body.desde, first.body.pasajes.length], [3, 0, 3]);
  const second = await h.client.get(`${path}?limite=3&desde=3`);
  assert.deepEqual(
    second.body.pasajes.map((p: ViewedPassage) => p.pasaje),
    passages.slice(3, 6).map((p) => p.pasaje),
  );
  const beyond = await h.client.get(`${path}?desde=500`);
  assert.deepEqual([beyond.status, beyond.body.pasajes, beyond.body.total], [200, [], passages.length]);
  assert.equal((await h.client.get(path)).body.limite, 20);

  // The ids are the ones a search gives: a hit opens to its place in the document.
  const hit = (await h.client.post(`/rag/${h.spaceId}/buscar`, { json: { pregunta: 'norma 5' } })).body.pasajes[0];
  assert.ok(passages.some((p) => p.pasaje === hit.pasaje && p.texto.includes('norma 5')));

  for (const query of ['limite=0', 'limite=101', 'desde=-1', 'limite=dos']) {
    const bad = await h.client.get(`${path}?${query}`);
    assert.equal(bad.status, 422, `${query}: ${bad.text}`);
    assert.equal(bad.body.codigo, 'validation_failed');
  }
  const missing = await h.client.get(`/rag/${h.spaceId}/documents/no-existe.md/pasajes`);
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, { detail: 'Documento no encontrado.', codigo: 'not_found' });
});

test("another owner's space is refused with the contract's 403, and its document is never read", async (t) => {
  const h = await startTestHost(t);
  const owner = await h.admin.createOwner({ name: 'Otra tienda', credits: 100 });
  await h.admin.createSpace({ id: 'ajeno', ownerId: owner.id, modules: ['api'] });
  const theirs = h.client.as((await h.admin.issueKey(owner.id, 'suya', [], 'escribe')).token);
  const form = new FormData();
  form.append('archivos', new Blob(['# Secreto\n\nEl código de la caja fuerte es 4321.']), 'secreto.md');
  assert.equal((await theirs.post('/rag/ajeno/load_documents', { body: form })).status, 202);
  for (let i = 0; i < 600 && !(await theirs.get('/rag/ajeno/indexing_status')).body.listo; i++)
    await new Promise((r) => setTimeout(r, 100));
  assert.equal((await theirs.get('/rag/ajeno/documents/secreto.md/pasajes')).body.total, 1);
  const session = h.client.as((await h.admin.issueConsoleSession(h.ownerId)).token);
  for (const caller of [h.client, session]) {
    const foreign = await caller.get('/rag/ajeno/documents/secreto.md/pasajes');
    assert.equal(foreign.status, 403, foreign.text);
    assert.deepEqual(foreign.body, { detail: 'Sin acceso a este espacio.', codigo: 'space_not_reachable' });
  }
  // Nor through one's own space: a name is looked up in the space of the path only.
  const own = await h.client.get(`/rag/${h.spaceId}/documents/secreto.md/pasajes`);
  assert.equal(own.status, 404);
});

test('the passages of a scanned PDF page and of an image are marked as read with OCR, with their page', async (t) => {
  const h = await startTestHost(t);
  const lines = ['Devoluciones', 'Las devoluciones se aceptan durante treinta dias.'];
  // A PDF's scanned page is a JPEG (imageOnlyPdf embeds DCT images); the poster is a PNG file of its own.
  const pdf = imageOnlyPdf([['Reglamento de la biblioteca'], await scannedPage(lines, 'jpeg')]);
  const form = new FormData();
  form.append('archivos', new Blob([pdf]), 'reglamento.pdf');
  form.append('archivos', new Blob([await scannedPage(lines, 'png')]), 'cartel.png');
  assert.equal((await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: form })).status, 202);
  await h.waitForIndexing(120_000);

  const read = (await h.client.get(`/rag/${h.spaceId}/documents/reglamento.pdf/pasajes`)).body;
  assert.equal(read.documento.paginas, 2);
  const byPage = (read.pasajes as ViewedPassage[]).map((p) => [p.pagina, p.ocr]);
  assert.deepEqual(byPage, [
    [1, false],
    [2, true],
  ]);
  assert.match((read.pasajes as ViewedPassage[])[1]!.texto, /devoluciones/i);
  const image = (await h.client.get(`/rag/${h.spaceId}/documents/cartel.png/pasajes`)).body;
  assert.ok(image.pasajes.length > 0);
  assert.ok((image.pasajes as ViewedPassage[]).every((p) => p.ocr && p.pagina === 1));
});
