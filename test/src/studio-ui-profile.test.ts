// Studio in Chromium: the first sign-in with a one-time link (then creating a password), a used link, the list of
// sessions, and a session ended elsewhere sending the page back to the sign-in form.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { launchBrowser } from './support/browser.js';
import {
  checkPage,
  goTo,
  openPage,
  signInThroughForm,
  startStudioWorld,
  type StudioWorld,
} from './support/studio-ui.js';
import { studioAdmin } from './support/studio.js';

test('Studio first sign-in: a one-time link opens the console, the owner creates a password and signs in with it; the link works once', async (t) => {
  const h = await startTestHost(t, { discover: true, spaceId: 'demo' });
  await studioAdmin(h).setOwnerEmail(h.ownerId, 'nueva@example.com');
  const browser = await launchBrowser();
  t.after(() => browser.close());
  const world: StudioWorld = { h, browser, studio: `${h.url}/studio/` };
  const { enlace } = await studioAdmin(h).issueSignInLink(h.ownerId, h.url);

  // A mail scanner fetches the link before the owner clicks it: that must not use it up.
  for (let i = 0; i < 2; i++) assert.equal((await fetch(enlace)).status, 200);
  const scanner = await openPage(world);
  await scanner.page.goto(enlace);
  await scanner.page.getByRole('heading', { level: 1, name: 'Entrar con un enlace' }).waitFor();
  await scanner.page.close();

  const { page, seen } = await openPage(world);
  await page.goto(enlace);
  await page.getByRole('heading', { level: 1, name: 'Entrar con un enlace' }).waitFor();
  await checkPage(page, 'studio-enlace-confirmar');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('heading', { level: 1, name: 'Espacios' }).waitFor();
  assert.equal(new URL(page.url()).search, '', 'the token leaves the address bar');
  await page.getByRole('link', { name: 'Crea tu contraseña' }).click();
  await page.getByRole('heading', { level: 1, name: 'Perfil y sesiones' }).waitFor();
  assert.equal(await page.getByLabel('Contraseña actual').count(), 0, 'no current password to give yet');
  await page.getByText('aún no tienes contraseña').waitFor();
  await checkPage(page, 'studio-perfil-primera-vez');
  await page.getByLabel('Contraseña nueva').fill('mi primera clave segura');
  await page.getByRole('button', { name: 'Crear la contraseña' }).click();
  await page.getByRole('status').filter({ hasText: 'Contraseña creada' }).waitFor();
  assert.equal(
    await page.getByLabel('Contraseña actual').count(),
    1,
    'from now on changing it asks for the current one',
  );
  await goTo(page, world.studio, 'claves', 'Claves de la API');
  assert.equal(await page.getByRole('link', { name: 'Crea tu contraseña' }).count(), 0, 'the reminder is gone');

  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await page.getByRole('heading', { level: 1, name: 'Iniciar sesión' }).waitFor();
  await signInThroughForm(page, world.studio, 'nueva@example.com', 'mi primera clave segura');

  const again = await openPage(world);
  await again.page.goto(enlace);
  await again.page.getByRole('button', { name: 'Entrar' }).click();
  await again.page.getByRole('alert').filter({ hasText: 'El enlace de acceso no es válido' }).waitFor();
  await again.page.getByRole('link', { name: 'Entrar con tu email y contraseña' }).waitFor();
  await checkPage(again.page, 'studio-enlace-usado');
  assert.deepEqual(seen.consoleErrors, []);
});

test('Studio sessions: another browser is listed and can be closed; a session ended elsewhere returns to the sign-in form', async (t) => {
  const world = await startStudioWorld(t);
  const first = await openPage(world);
  await signInThroughForm(first.page, world.studio);
  const second = await openPage(world);
  await signInThroughForm(second.page, world.studio);

  await goTo(first.page, world.studio, 'perfil', 'Perfil y sesiones');
  const sessions = first.page.getByRole('region', { name: 'Sesiones abiertas' });
  await sessions.getByText('Esta sesión', { exact: true }).waitFor();
  assert.equal(await sessions.getByRole('listitem').count(), 2);
  assert.match(await sessions.innerText(), /Chrome \d+ en Linux/);
  await checkPage(first.page, 'studio-perfil-sesiones');
  await sessions.getByRole('button', { name: /Cerrar/ }).click();
  await first.page.waitForFunction('document.querySelectorAll("#sesiones-abiertas-titulo ~ ul li").length === 1');

  // The second browser's session is over: its next call is refused and it shows the sign-in form, saying why.
  await second.page.getByRole('link', { name: 'Claves de la API' }).click();
  await second.page.getByRole('heading', { level: 1, name: 'Iniciar sesión' }).waitFor();
  await second.page.getByText('Tu sesión terminó').waitFor();
  assert.deepEqual(first.seen.consoleErrors, []);
});
