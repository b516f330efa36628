import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { imageOnlyPdf, scannedPage, tiffOf } from '../cerebro/testing/scanned.js';

test('scanned documents (an image-only PDF, PNG, JPEG, TIFF) are uploaded, read with OCR and answer questions with their page', async (t) => {
  const h = await startTestHost(t);
  const hours = await scannedPage(
    ['Horario de la biblioteca', 'La biblioteca abre de lunes a viernes de nueve a dos.'],
    'png',
  );
  const returns = await scannedPage(['Devoluciones', 'Las devoluciones se aceptan durante treinta dias.'], 'jpeg');
  const parking = await scannedPage(
    ['Aparcamiento', 'El aparcamiento de bicicletas esta junto a la puerta norte.'],
    'png',
  );
  const form = new FormData();
  form.append('archivos', new Blob([imageOnlyPdf([['Reglamento de la biblioteca'], returns])]), 'reglamento.pdf');
  form.append('archivos', new Blob([hours]), 'horario.png');
  form.append('archivos', new Blob([returns]), 'cartel.jpg');
  form.append('archivos', new Blob([await tiffOf(parking)]), 'plano.tiff');
  const upload = await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: form });
  assert.equal(upload.status, 202);

  let status;
  for (let i = 0; i < 600; i++) {
    status = (await h.client.get(`/rag/${h.spaceId}/indexing_status`)).body;
    if (status.listo) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(status.documentos.map((d: { nombre: string; estado: string }) => [d.nombre, d.estado]).sort(), [
    ['cartel.jpg', 'listo'],
    ['horario.png', 'listo'],
    ['plano.tiff', 'listo'],
    ['reglamento.pdf', 'listo'],
  ]);

  const ask = async (pregunta: string) =>
    (await h.client.post(`/rag/${h.spaceId}/conversations`, { json: { pregunta } })).body;
  const opening = await ask('¿Qué días abre la biblioteca?');
  assert.match(opening.respuesta, /lunes a viernes/);
  assert.equal(opening.fuentes[0].documento, 'horario.png');
  const bikes = await ask('¿Dónde está el aparcamiento de bicicletas?');
  assert.match(bikes.respuesta, /puerta norte/);
  assert.equal(bikes.fuentes[0].documento, 'plano.tiff');
  const refunds = await ask('¿Durante cuántos días se aceptan las devoluciones?');
  assert.match(refunds.respuesta, /treinta/);
  const fromPdf = refunds.fuentes.find((f: { documento: string }) => f.documento === 'reglamento.pdf');
  assert.equal(fromPdf?.pagina, 2, 'the scanned page keeps its number');
});
