// Studio in Chromium: upload a document and watch it become ready, download it, ask and read the streamed answer
// with its sources and a follow-up question, then delete the document.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkPage, goTo, openPage, signInThroughForm, startStudioWorld } from './support/studio-ui.js';

const GUIDE = `# Guía de la oficina

## Horario

La oficina atiende de lunes a viernes, de 9 a 18 horas, en la calle Mayor 5.

## Actualización

Para actualizar el sistema ejecute lo siguiente:

    # apt update
`;

test('Studio documents and ask: upload with progress, live indexing to ready, a streamed answer with sources, a follow-up, delete', async (t) => {
  const world = await startStudioWorld(t);
  const { page, seen } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'espacios/demo/documentos', 'Documentos');
  await page.getByText('Este espacio todavía no tiene documentos.').waitFor();
  await checkPage(page, 'studio-documentos-vacio');

  await page.getByLabel('Elegir archivos').setInputFiles({ name: 'guia-oficina.md', mimeType: 'text/markdown', buffer: Buffer.from(GUIDE) });
  await page.getByRole('status').filter({ hasText: 'Se subió 1 documento' }).waitFor();
  const row = page.locator('tr[data-documento="guia-oficina.md"]');
  await row.locator('[data-estado="listo"]').waitFor({ timeout: 60_000 });
  assert.match(await row.innerText(), /Listo/);
  const listed = await world.h.client.get('/rag/demo/documents');
  assert.equal(listed.body.documentos[0].estado, 'listo', 'the API agrees');
  await checkPage(page, 'studio-documentos');

  // Download goes through the same API route with the session cookie.
  const download = page.waitForEvent('download');
  await row.getByRole('link', { name: /Descargar/ }).click();
  const file = await download;
  assert.equal(file.suggestedFilename(), 'guia-oficina.md');
  const { readFile } = await import('node:fs/promises');
  assert.equal(await readFile((await file.path())!, 'utf8'), GUIDE);

  await goTo(page, world.studio, 'espacios/demo/preguntar', 'Preguntar');
  await checkPage(page, 'studio-preguntar-vacio');
  await page.getByLabel('Tu pregunta').fill('¿Qué horario tiene la oficina?');
  const streamed = page.waitForResponse((r) => r.url().endsWith('/api/rag/demo/conversations/stream'));
  await page.getByRole('button', { name: 'Preguntar' }).click();
  assert.match((await streamed).headers()['content-type'] ?? '', /text\/event-stream/, 'the answer comes over the live (SSE) route');
  const answer = page.getByTestId('respuesta').first();
  await answer.and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 30_000 });
  assert.match(await answer.innerText(), /lunes a viernes/);
  const sources = answer.getByTestId('fuentes');
  assert.match(await sources.innerText(), /guia-oficina\.md/);
  await sources.locator('summary').first().click();
  assert.match(await sources.locator('pre').first().innerText(), /calle Mayor/);

  await page.getByLabel('Pregunta de seguimiento').fill('¿Cómo se actualiza el sistema?');
  await page.getByLabel('Pregunta de seguimiento').press('Enter');
  const second = page.getByTestId('respuesta').nth(1);
  await second.and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 30_000 });
  assert.match(await second.innerText(), /apt update/);
  await checkPage(page, 'studio-preguntar');

  await goTo(page, world.studio, 'espacios/demo/documentos', 'Documentos');
  await row.getByRole('button', { name: /Eliminar/ }).click();
  await row.getByRole('button', { name: 'Sí, eliminar' }).click();
  await page.getByText('Este espacio todavía no tiene documentos.').waitFor();
  assert.equal((await world.h.client.get('/rag/demo/documents')).body.total, 0);
  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
});
