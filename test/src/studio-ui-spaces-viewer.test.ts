// Studio in Chromium (issue #26 item 3): an owner creates a space within the operator's allowance and renames one,
// and opens a document's passages as indexed (sections, pages, OCR'd text marked), a page at a time; 1280 and 375 px.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkPage, goTo, openPage, signInThroughForm, startStudioWorld } from './support/studio-ui.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// The scanned-page generator of the repository's own test kit (compiled with it; loaded by path).
const { scannedPage } = (await import(join(ROOT, 'host/dist/cerebro/testing/scanned.js'))) as {
  scannedPage(lines: string[], format: 'png' | 'jpeg'): Promise<Buffer>;
};

test('Studio spaces: the allowance says who creates spaces; within it the owner creates one, then renames it', async (t) => {
  const world = await startStudioWorld(t);
  const operator = world.h.client.as((await world.h.admin.issueOperatorCredential('ops')).token);
  const { page, seen } = await openPage(world);
  await signInThroughForm(page, world.studio);
  const allowance = page.getByTestId('cupo-espacios');
  await allowance.waitFor();
  assert.match(await allowance.innerText(), /los crea el operador de la plataforma/);
  assert.equal(await page.getByRole('button', { name: 'Crear espacio' }).count(), 0, 'no form at an allowance of 0');

  await operator.put(`/admin/propietarios/${world.h.ownerId}/cupo_espacios`, { json: { max_espacios: 2 } });
  await page.reload();
  await page.getByText('Puedes crear 1 espacio más (tienes 1 de 2).').waitFor();
  // A refused id shows the API's own words.
  await page.getByLabel('Id del espacio').fill('Tienda Sol');
  await page.getByRole('button', { name: 'Crear espacio' }).click();
  await page.getByRole('alert').filter({ hasText: 'minúsculas, cifras' }).waitFor();
  await page.getByLabel('Id del espacio').fill('tienda-sol');
  await page.getByLabel('Nombre visible (opcional)').fill('Tienda Sol');
  await page.getByRole('button', { name: 'Crear espacio' }).click();
  await page.getByRole('status').filter({ hasText: 'Se creó el espacio' }).waitFor();
  await page.getByRole('heading', { level: 2, name: 'Tienda Sol' }).waitFor();
  await page.getByText('Tienes 2 espacios y tu cupo es de 2').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Crear espacio' }).count(), 0, 'the form goes at the allowance');
  const created = (await operator.get('/admin/espacios/tienda-sol')).body;
  assert.deepEqual([created.propietario, created.modulos], [world.h.ownerId, ['api']]);
  await checkPage(page, 'studio-espacios-crear');

  // Rename in place: a blank name is refused with the API's message, then a good one replaces the heading.
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Tienda Sol' }) });
  await card.getByRole('button', { name: 'Renombrar Tienda Sol' }).click();
  const field = card.getByLabel('Nombre nuevo');
  // The field takes the focus once shown: waited for, since the click re-renders the card first.
  await page.waitForFunction(
    "document.activeElement && document.activeElement.id === 'renombrar-tienda-sol'",
    undefined,
    {
      timeout: 5_000,
    },
  );
  await field.fill('   ');
  await card.getByRole('button', { name: 'Guardar nombre' }).click();
  await card.getByRole('alert').filter({ hasText: 'No se renombró.' }).waitFor();
  await checkPage(page, 'studio-espacios-renombrar-error');
  await field.fill('Tienda Sol Centro');
  await card.getByRole('button', { name: 'Guardar nombre' }).click();
  await page.getByRole('heading', { level: 2, name: 'Tienda Sol Centro' }).waitFor();
  assert.equal((await operator.get('/admin/espacios/tienda-sol')).body.nombre, 'Tienda Sol Centro');
  await page.setViewportSize({ width: 375, height: 800 });
  await checkPage(page, 'studio-espacios-375');
  const activity = (await world.h.client.get('/auditoria')).body.eventos as { accion: string }[];
  assert.ok(activity.some((e) => e.accion === 'espacio.creado'));
  assert.ok(activity.some((e) => e.accion === 'espacio.renombrado'));

  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
  assert.ok(
    seen.requests.every((url) => url.startsWith(world.h.url)),
    `only the server itself is called: ${seen.requests.filter((u) => !u.startsWith(world.h.url))}`,
  );
});

const GUIDE = [
  '# Manual de la tienda',
  ...Array.from({ length: 23 }, (_, i) =>
    [`## Norma ${i + 1}`, `La norma número ${i + 1} de la tienda dice cómo atender el punto ${i + 1}.`].join('\n\n'),
  ),
].join('\n\n');

test('Studio documents: «Ver pasajes» opens the passages as indexed, in order with sections and pages, OCR marked, paged', async (t) => {
  const world = await startStudioWorld(t);
  const form = new FormData();
  form.append('archivos', new Blob([GUIDE]), 'manual.md');
  form.append(
    'archivos',
    new Blob([await scannedPage(['Horario', 'La tienda abre de lunes a viernes de nueve a dos.'], 'png')]),
    'cartel.png',
  );
  assert.equal((await world.h.client.post('/rag/demo/load_documents', { body: form })).status, 202);
  await world.h.waitForIndexing(120_000);

  for (const width of [1280, 375]) {
    const { page, seen } = await openPage(world, width);
    await signInThroughForm(page, world.studio);
    await goTo(page, world.studio, 'espacios/demo/documentos', 'Documentos');
    await page.getByRole('button', { name: 'Ver pasajes de manual.md' }).click();
    const viewer = page.getByTestId('visor-pasajes');
    await viewer.getByRole('heading', { name: 'Pasajes de «manual.md»' }).waitFor();
    assert.equal(
      await page.evaluate<string | null>('document.activeElement && document.activeElement.id'),
      'visor-titulo',
      'the viewer heading takes focus',
    );
    const items = viewer.getByRole('list', { name: 'Pasajes de manual.md' }).getByRole('listitem');
    await items.first().waitFor();
    assert.equal(await items.count(), 20, 'a page of 20');
    const total = (await world.h.client.get('/rag/demo/documents/manual.md/pasajes')).body.total as number;
    assert.match(await viewer.innerText(), new RegExp(`Pasajes 1–20 de ${total}\\b`));
    assert.match(await items.nth(2).innerText(), /^Pasaje 3\b/);
    const second = items.filter({ hasText: 'La norma número 2 de la tienda' });
    assert.match(await second.innerText(), /Manual de la tienda › Norma 2/, 'each passage shows its sections');
    await checkPage(page, `studio-documentos-pasajes${width === 375 ? '-375' : ''}`);
    await viewer.getByRole('button', { name: 'Siguientes' }).click();
    await viewer.getByText(`Pasajes 21–${total} de ${total}`).waitFor();
    assert.match(await items.last().innerText(), /Norma 23/);
    assert.ok(await viewer.getByRole('button', { name: 'Siguientes' }).isDisabled());
    await viewer.getByRole('button', { name: 'Anteriores' }).click();
    await viewer.getByText(`Pasajes 1–20 de ${total}`).waitFor();

    // An image: its passages carry their page and the OCR mark.
    await page.getByRole('button', { name: 'Ver pasajes de cartel.png' }).click();
    await viewer.getByRole('heading', { name: 'Pasajes de «cartel.png»' }).waitFor();
    const ocr = viewer.locator('li[data-ocr="si"]');
    await ocr.first().waitFor();
    await viewer.getByText('1 pasaje · 1 página').waitFor();
    await viewer.getByText('texto leído de una imagen (una página escaneada').waitFor();
    assert.match(await ocr.first().innerText(), /Página 1[\s\S]*OCR/);
    assert.match(await ocr.first().innerText(), /lunes a viernes/i);
    await checkPage(page, `studio-documentos-pasajes-ocr${width === 375 ? '-375' : ''}`);
    await viewer.getByRole('button', { name: 'Cerrar los pasajes de cartel.png' }).click();
    await viewer.waitFor({ state: 'detached' });

    assert.deepEqual(seen.consoleErrors, []);
    assert.deepEqual(seen.serverErrors, []);
    assert.ok(seen.requests.every((url) => url.startsWith(world.h.url)));
  }
});
