import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { makeDocx, makeDocxBomb } from '../cerebro/testing/fixtures.js';

test('an uploaded DOCX bomb (declared 1,692 bytes, inflating to 64 MB) ends fallido with a Spanish reason; honest files still index', async (t) => {
  const h = await startTestHost(t);
  const form = new FormData();
  form.append('archivos', new Blob([makeDocxBomb(64 * 1024 * 1024)]), 'bomba.docx');
  form.append(
    'archivos',
    new Blob([await makeDocx([{ text: 'Instalación', heading: 1 }, { text: 'Ejecute el instalador.' }])]),
    'manual.docx',
  );
  const res = await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: form });
  assert.equal(res.status, 202, res.text);
  let status;
  for (let i = 0; i < 400; i++) {
    status = (await h.client.get(`/rag/${h.spaceId}/indexing_status`)).body;
    if (status.listo) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const byName = Object.fromEntries(status.documentos.map((d: { nombre: string }) => [d.nombre, d]));
  assert.equal(byName['bomba.docx'].estado, 'fallido');
  assert.equal(byName['bomba.docx'].error.codigo, 'demasiado_grande');
  assert.match(byName['bomba.docx'].error.motivo, /descomprimido .* demasiado grande/);
  assert.equal(byName['manual.docx'].estado, 'listo');
});
