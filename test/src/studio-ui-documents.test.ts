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

  await page
    .getByLabel('Elegir archivos')
    .setInputFiles({ name: 'guia-oficina.md', mimeType: 'text/markdown', buffer: Buffer.from(GUIDE) });
  await page.getByRole('status').filter({ hasText: 'Se subió 1 documento' }).waitFor();
  const row = page.locator('tr[data-documento="guia-oficina.md"]');
  await row.locator('[data-estado="listo"]').waitFor({ timeout: 60_000 });
  assert.match(await row.innerText(), /Listo/);
  const listed = await world.h.client.get('/rag/demo/documents');
  assert.equal(listed.body.documentos[0].estado, 'listo', 'the API agrees');
  // Tags set through the API show under the name.
  await world.h.client.patch('/rag/demo/documents/guia-oficina.md', { json: { etiquetas: ['Oficina', 'horarios'] } });
  await goTo(page, world.studio, 'espacios/demo/documentos', 'Documentos');
  const tags = page.getByRole('list', { name: 'Etiquetas de guia-oficina.md' });
  await tags.waitFor();
  assert.deepEqual(await tags.getByRole('listitem').allInnerTexts(), ['oficina', 'horarios']);
  await checkPage(page, 'studio-documentos');

  // "Probar búsqueda": the ranked passages of a question, free (the balance does not move) and shown as text.
  const balance = async () => (await world.h.client.get(`/cuentas/${world.h.accountId}/bolsa`)).body.saldo as number;
  const before = await balance();
  await page.getByLabel('Pregunta de prueba').fill('¿En qué calle está la oficina?');
  await page.getByRole('button', { name: 'Buscar pasajes' }).click();
  const hits = page.getByRole('list', { name: 'Pasajes encontrados' });
  await hits.waitFor();
  const first = hits.getByRole('listitem').first();
  assert.match(
    await first.locator('summary').innerText(),
    /^guia-oficina\.md · Guía de la oficina › Horario · puntuación /,
  );
  assert.match(await first.locator('pre').innerText(), /calle Mayor 5/, 'the first passage is open and holds the fact');
  assert.equal(await balance(), before, 'searching costs no credits');
  await checkPage(page, 'studio-documentos-busqueda');
  await page.setViewportSize({ width: 375, height: 800 });
  await checkPage(page, 'studio-documentos-busqueda-375');
  await page.setViewportSize({ width: 1280, height: 900 });

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
  assert.match(
    (await streamed).headers()['content-type'] ?? '',
    /text\/event-stream/,
    'the answer comes over the live (SSE) route',
  );
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

  // Dropped onto the drop zone (a real drop event carrying a file), as from the desktop.
  await goTo(page, world.studio, 'espacios/demo/documentos', 'Documentos');
  const dropped = await page.evaluateHandle(`(() => {
    const data = new DataTransfer();
    data.items.add(new File(['# Notas\\n\\nEl aparcamiento está en el sótano.\\n'], 'notas.md', { type: 'text/markdown' }));
    return data;
  })()`);
  await page.dispatchEvent('.dropzone', 'dragover', { dataTransfer: dropped });
  assert.match(
    (await page.locator('.dropzone').getAttribute('class')) ?? '',
    /dragging/,
    'the zone shows it will take the file',
  );
  await page.dispatchEvent('.dropzone', 'drop', { dataTransfer: dropped });
  await page.locator('tr[data-documento="notas.md"] [data-estado="listo"]').waitFor({ timeout: 60_000 });
  assert.equal((await world.h.client.get('/rag/demo/documents')).body.total, 2);

  await row.getByRole('button', { name: /Eliminar/ }).click();
  await row.getByRole('button', { name: 'Sí, eliminar' }).click();
  await row.waitFor({ state: 'detached' });
  assert.deepEqual(
    (await world.h.client.get('/rag/demo/documents')).body.documentos.map((d: { nombre: string }) => d.nombre),
    ['notas.md'],
  );
  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
});

test('Studio documents: a slow upload shows its progress as it goes, and can be cancelled', async (t) => {
  const world = await startStudioWorld(t);
  const { page } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'espacios/demo/documentos', 'Documentos');
  // A slow connection (Chromium's own throttling), so the progress can be seen between 0 and 100 %.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 256 * 1024,
  });
  const big = Buffer.from('Una línea del manual de la oficina que se repite para ocupar espacio.\n'.repeat(16_000));
  await page.getByLabel('Elegir archivos').setInputFiles({ name: 'manual.txt', mimeType: 'text/plain', buffer: big });
  const bar = page.locator('#progreso-subida');
  await bar.waitFor();
  let midway = 0;
  for (let i = 0; i < 40 && midway === 0; i++) {
    const value = Number(await bar.getAttribute('value').catch(() => '0'));
    if (value > 0 && value < 1) midway = value;
    else await page.waitForTimeout(100);
  }
  assert.ok(midway > 0 && midway < 1, 'a share between 0 and 1 was shown');
  assert.match(
    await page.getByRole('status').filter({ hasText: 'Subiendo manual.txt' }).innerText(),
    /Subiendo manual\.txt: \d+ %/,
  );
  await page.getByRole('button', { name: 'Cancelar' }).click();
  await page.getByRole('alert').filter({ hasText: 'cancelada' }).waitFor();
  await bar.waitFor({ state: 'detached' });
  assert.equal((await world.h.client.get('/rag/demo/documents')).body.total, 0, 'a cancelled upload stores nothing');
});

test('Studio documents: a refused file is listed with the reason the service gives', async (t) => {
  const world = await startStudioWorld(t);
  const { page } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'espacios/demo/documentos', 'Documentos');
  const hidden = 'informe\u202Efdp.txt'; // a right-to-left override: shown as "informetxt.pdf"
  await page.getByLabel('Elegir archivos').setInputFiles([
    { name: 'bien.txt', mimeType: 'text/plain', buffer: Buffer.from('Un documento corriente.') },
    { name: hidden, mimeType: 'text/plain', buffer: Buffer.from('Nombre engañoso.') },
  ]);
  await page.locator('tr[data-documento="bien.txt"]').waitFor();
  await page.getByText('El nombre del archivo contiene caracteres de control o de dirección del texto.').waitFor();
});

test('Studio documents: past the 200 the list route gives at once, "Mostrar más documentos" brings the rest', async (t) => {
  const world = await startStudioWorld(t);
  const { filesForm } = await import('./support/rag.js');
  for (let batch = 0; batch < 11; batch++) {
    const files: Record<string, string> = {};
    for (let i = batch * 20; i < Math.min(201, (batch + 1) * 20); i++)
      files[`nota-${String(i).padStart(3, '0')}.txt`] = `Nota número ${i}.`;
    assert.equal((await world.h.client.post('/rag/demo/load_documents', { body: filesForm(files) })).status, 202);
  }
  const { page } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'espacios/demo/documentos', 'Documentos');
  const rows = page.locator('tr[data-documento]');
  await page.getByRole('button', { name: 'Mostrar más documentos' }).waitFor();
  assert.equal(await rows.count(), 200);
  await page.getByRole('button', { name: 'Mostrar más documentos' }).click();
  await page.getByRole('button', { name: 'Mostrar más documentos' }).waitFor({ state: 'detached' });
  assert.equal(await rows.count(), 201);
});
