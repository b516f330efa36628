// Studio in Chromium: signing in, and the keys page (create a key and see its secret once, use it, revoke it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TestClient } from '@cerebro/sdk/testing';
import { checkPage, goTo, openPage, signInThroughForm, startStudioWorld } from './support/studio-ui.js';

test('Studio: sign-in refuses a wrong password with the API message, then signs in and out', async (t) => {
  const world = await startStudioWorld(t);
  await world.h.admin.setTrialEnd('demo', '2099-01-31T00:00:00.000Z');
  const { page, seen } = await openPage(world);
  await page.goto(world.studio);
  await page.getByRole('heading', { level: 1, name: 'Iniciar sesión' }).waitFor();
  await checkPage(page, 'studio-iniciar-sesion');
  await page.getByLabel('Correo electrónico').fill('duena@example.com');
  await page.getByLabel('Contraseña').fill('no es esta');
  await page.getByRole('button', { name: 'Entrar' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.innerText(), /\S/, 'the API detail is shown');
  assert.equal(await page.getByLabel('Contraseña').inputValue(), '', 'the wrong password is cleared');

  await signInThroughForm(page, world.studio);
  // The page's heading shows before its list arrives (one more request, a round trip longer on PostgreSQL): the
  // space must appear, so this waits for it (and fails when it never does) instead of looking once.
  await page.getByRole('link', { name: 'demo' }).waitFor();
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'demo' }) });
  await card.getByText('Al día').waitFor();
  assert.match(await card.innerText(), /Prueba\s+Hasta el 31 ene 2099/);
  assert.match(await card.innerText(), /500 créditos/);
  await checkPage(page, 'studio-espacios');

  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await page.getByRole('heading', { level: 1, name: 'Iniciar sesión' }).waitFor();
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Iniciar sesión' }).waitFor();
  assert.ok(
    seen.requests.every((url) => url.startsWith(world.h.url)),
    `only the server itself is called: ${seen.requests.filter((u) => !u.startsWith(world.h.url))}`,
  );
});

test('Studio keys: a new key is shown once with a copy button, works on the API, shows its use, and revoking it stops it', async (t) => {
  const world = await startStudioWorld(t);
  const { page, seen } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'claves', 'Claves de la API');

  await page.getByLabel('Nombre', { exact: true }).fill('tienda-web');
  await page.getByLabel('demo').check();
  await page.getByRole('radio', { name: /Lectura y escritura/ }).check();
  await page.getByRole('button', { name: 'Crear la clave' }).click();
  const secret = (await page.getByTestId('clave-secreta').innerText()).trim();
  assert.match(secret, /^crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/);
  assert.ok(await page.getByRole('button', { name: 'Copiar la clave' }).isVisible());
  await checkPage(page, 'studio-claves-nueva');

  // The key works on the API like any other, and its use shows in the list.
  const client = new TestClient(`${world.h.url}/api`, secret);
  assert.equal((await client.get('/rag/demo/documents')).status, 200);
  assert.equal((await client.get('/companies')).status, 200);
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Claves de la API' }).waitFor();
  assert.equal(await page.getByTestId('clave-secreta').count(), 0, 'the secret is never shown again');
  assert.ok(!(await page.content()).includes(secret.split('.')[1]!), 'the secret is nowhere in the page');
  const row = page.getByRole('row', { name: /tienda-web/ });
  assert.match(await row.innerText(), /Lectura y escritura/);
  await row.getByRole('button', { name: /Uso/ }).click();
  const usage = page.getByRole('region', { name: /Uso de «tienda-web»/ });
  await usage.getByText('GET /rag/:espacio/documents').first().waitFor();
  await checkPage(page, 'studio-claves-uso');

  await row.getByRole('button', { name: /Revocar/ }).click();
  await row.getByRole('button', { name: 'Sí, revocar' }).click();
  await page.getByRole('status').filter({ hasText: 'revocada' }).waitFor();
  assert.equal((await client.get('/companies')).status, 401, 'the revoked key is refused');
  // The notice shows when the API has answered; the list is read again after it, so the row is waited out (the wait
  // fails if it never goes), and the key then shows among the revoked ones.
  await page.getByRole('row', { name: /tienda-web/ }).waitFor({ state: 'detached' });
  const revoked = page.getByRole('region', { name: 'Claves revocadas' });
  assert.match(await revoked.getByRole('listitem').filter({ hasText: 'tienda-web' }).innerText(), /tienda-web/);
  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
});

test("Studio keys: a key's own limits are set in the create form, shown in the list, changed later and applied", async (t) => {
  const world = await startStudioWorld(t);
  const { page, seen } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'claves', 'Claves de la API');

  await page.getByLabel('Nombre', { exact: true }).fill('con-limites');
  await page.getByRole('radio', { name: /Lectura y escritura/ }).check();
  await page.getByLabel('Peticiones por minuto de esta clave').fill('2');
  await page.getByLabel('Peticiones por día (UTC) de esta clave').fill('5000');
  await checkPage(page, 'studio-claves-limites-formulario');
  await page.getByRole('button', { name: 'Crear la clave' }).click();
  const secret = (await page.getByTestId('clave-secreta').innerText()).trim();
  assert.equal(await page.getByLabel('Peticiones por minuto de esta clave').inputValue(), '', 'the form is cleared');
  await page.getByRole('button', { name: 'Ya la guardé' }).click();

  const row = page.getByRole('row', { name: /con-limites/ });
  assert.match(await row.innerText(), /2\/min · 5000\/día/); // es-ES groups from 5 digits on
  const others = page.getByRole('row').filter({ hasText: 'Los del espacio' });
  assert.ok((await others.count()) >= 1, 'keys without their own limits say so');

  // The key's own limit applies on the API, and the 429 names it.
  const client = new TestClient(`${world.h.url}/api`, secret);
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
  assert.equal((await client.get('/rag/demo/documents')).status, 200);
  assert.equal((await client.get('/rag/demo/documents')).status, 200);
  const refused = await client.get('/rag/demo/documents');
  assert.equal(refused.status, 429);
  assert.match(refused.headers.get('ratelimit-policy') ?? '', /^2;w=60;limite="clave"/);

  // Changed later from the list: raised, and the quota removed.
  await row.getByRole('button', { name: /Límites/ }).click();
  const editor = page.getByRole('region', { name: /Límites de «con-limites»/ });
  await editor.getByLabel('Peticiones por minuto de esta clave').fill('10');
  await editor.getByLabel('Peticiones por día (UTC) de esta clave').fill('');
  await checkPage(page, 'studio-claves-limites-editar');
  await editor.getByRole('button', { name: 'Guardar límites' }).click();
  await editor.getByRole('status').filter({ hasText: 'guardados' }).waitFor();
  await page
    .getByRole('row', { name: /con-limites/ })
    .getByText('10/min')
    .waitFor();
  assert.match(await page.getByRole('row', { name: /con-limites/ }).innerText(), /10\/min(?! ·)/);
  await checkPage(page, 'studio-claves-limites-guardados');
  assert.equal((await client.get('/rag/demo/documents')).status, 200, 'the raised limit applies at once');
  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
});
