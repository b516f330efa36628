// Studio in Chromium: the Actividad pages (issue #26 item 2): a space's changes and the whole account's, with who,
// what, from where and the settings before and after, filters, paging by cursor and the JSON Lines download; at
// 1280 and 375 px, axe clean, nothing requested from outside.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { checkPage, goTo, openPage, signInThroughForm, startStudioWorld } from './support/studio-ui.js';

test('Studio Actividad: who changed what and the settings before/after; filters, older pages, export; 1280 and 375 px', async (t) => {
  const world = await startStudioWorld(t);
  const { h } = world;
  // Changes by a key, through the API: 26 settings changes (a second page) and a key, which is the account's.
  for (let limit = 40; limit <= 65; limit++) {
    const res = await h.client.patch('/companies/demo/api-config', { json: { limite_por_minuto: limit } });
    assert.equal(res.status, 200);
  }
  assert.equal((await h.client.post('/tokens', { json: { nombre: 'integracion-web' } })).status, 201);
  const { page, seen } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'espacios/demo/actividad', 'Actividad');
  const table = page.getByTestId('actividad');
  await table.getByText('Ajustes de la API cambiados').first().waitFor();
  assert.equal(await table.getByRole('row').count(), 26, 'a header row and 25 events per page');
  assert.equal(await table.getByText('Clave creada').count(), 0, "a key is the account's, not the space's");
  await checkPage(page, 'studio-actividad');

  await page.getByRole('button', { name: 'Más antiguos' }).click();
  await page.getByRole('button', { name: 'Más recientes' }).waitFor({ state: 'visible' });
  const first = page.getByRole('row', { name: /Ajustes de la API cambiados/ });
  await page.waitForFunction(`document.querySelectorAll('[data-testid="actividad"] tbody tr').length === 1`);
  assert.match(await first.innerText(), /Clave «pruebas-escribe»/);
  await first.getByText('1 ajuste').click();
  await first.getByText('limite_por_minuto').waitFor();
  assert.match(await first.innerText(), /600\s*→\s*40/);
  await checkPage(page, 'studio-actividad-antiguos');
  await page.getByRole('button', { name: 'Más recientes' }).click();
  await page.waitForFunction(`document.querySelectorAll('[data-testid="actividad"] tbody tr').length === 25`);

  // Filters: the operator's changes only (none), then a day range that holds them all.
  await page.getByLabel('Quién').selectOption({ label: 'Operador de la plataforma' });
  await page.getByText('No hay cambios con estos filtros.').waitFor();
  await page.getByLabel('Quién').selectOption({ label: 'Claves de la API' });
  await page.getByLabel('Qué').selectOption({ label: 'Ajustes de la API' });
  await table.getByText('Ajustes de la API cambiados').first().waitFor();
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Exportar (JSON Lines)' }).click();
  const file = await (await download).path();
  const lines = (await readFile(file!, 'utf8')).trim().split('\n');
  assert.equal(lines.length, 26, 'every matching event, not only the page shown');
  assert.ok(lines.every((line) => JSON.parse(line).accion === 'api_config.modificada'));

  // The whole account: the owner's own sign-in is there, as a person with their email.
  await goTo(page, world.studio, 'actividad', 'Actividad de la cuenta');
  const signIn = page.getByRole('row', { name: /Entrada en Studio/ });
  await signIn.waitFor();
  await page.getByRole('row', { name: /Clave creada/ }).waitFor();
  assert.match(await signIn.innerText(), /duena@example\.com/);
  await checkPage(page, 'studio-actividad-cuenta');

  // A phone: one block per event, nothing wider than the screen.
  const phone = await openPage(world, 375);
  await signInThroughForm(phone.page, world.studio);
  await goTo(phone.page, world.studio, 'espacios/demo/actividad', 'Actividad');
  await phone.page.getByTestId('actividad').getByText('Ajustes de la API cambiados').first().waitFor();
  await checkPage(phone.page, 'studio-actividad-375');

  for (const s of [seen, phone.seen]) {
    assert.deepEqual(s.consoleErrors, []);
    assert.deepEqual(s.serverErrors, []);
    assert.deepEqual(
      s.requests.filter((url) => !url.startsWith(h.url)),
      [],
      'nothing from outside the server',
    );
  }
});
