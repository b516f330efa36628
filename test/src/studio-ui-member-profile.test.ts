// Studio in Chromium, a member's own «Perfil y sesiones»: reached from the navigation like an owner's, their email
// read-only (the one they were invited with), a new name shown in the header at once, another browser's session
// closed from the list, and a new password to sign in with. At 1280 and 375 px, axe clean, no console error,
// nothing from outside.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MEMBER_PASSWORD, member } from './support/members.js';
import { checkPage, openPage, signInThroughForm, startStudioWorld } from './support/studio-ui.js';
import { browserRequest, signIn } from './support/studio.js';

const NEW_PASSWORD = 'otra clave para ana 2026';

for (const width of [1280, 375]) {
  test(`Studio, a member’s profile at ${width} px: name, password and sessions; the email read-only`, async (t) => {
    const world = await startStudioWorld(t);
    const h = world.h;
    // The acceptance's session signs out: the list shows this browser and one other.
    const accepted = await member(h, await signIn(h.url), 'ana@example.com', 'edita');
    await browserRequest(h.url, 'DELETE', '/api/sesion', { cookie: accepted.cookie, csrf: accepted.csrf });
    const elsewhere = await signIn(h.url, 'ana@example.com', MEMBER_PASSWORD);

    const { page, seen } = await openPage(world, width);
    await signInThroughForm(page, world.studio, 'ana@example.com', MEMBER_PASSWORD);
    if (width < 800) await page.getByRole('button', { name: 'Menú' }).click();
    const nav = page.getByRole('navigation', { name: 'Secciones' });
    assert.equal(await nav.getByRole('link', { name: 'Actividad de la cuenta' }).count(), 0, 'the account’s, not hers');
    await nav.getByRole('link', { name: 'Perfil y sesiones', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Perfil y sesiones' }).waitFor();

    const email = page.getByLabel('Correo electrónico');
    assert.equal(await email.inputValue(), 'ana@example.com');
    assert.equal(await email.isEditable(), false, 'her email is the invited one');
    await page.getByText('Es la dirección a la que te invitaron').waitFor();
    const sessions = page.getByRole('region', { name: 'Sesiones abiertas' });
    await sessions.getByText('Esta sesión', { exact: true }).waitFor();
    assert.equal(await sessions.getByRole('listitem').count(), 2, 'this browser and the other sign-in');

    await page.getByLabel('Nombre').fill('Ana Pérez');
    await page.getByRole('button', { name: 'Guardar cambios' }).click();
    await page.getByRole('status').filter({ hasText: 'Datos guardados.' }).waitFor();
    // The header's name follows at once (hidden on a phone's narrow header, but there).
    await page.locator('.topbar-user .user-name', { hasText: 'Ana Pérez' }).waitFor({ state: 'attached' });
    await checkPage(page, `studio-miembro-perfil-${width}`);

    await sessions.getByRole('button', { name: /Cerrar/ }).click();
    await page.waitForFunction('document.querySelectorAll("#sesiones-abiertas-titulo ~ ul li").length === 1');
    assert.equal(
      (await browserRequest(h.url, 'GET', '/api/sesion', { cookie: elsewhere.cookie })).status,
      401,
      'the other browser is signed out',
    );

    await page.getByLabel('Contraseña actual').fill(MEMBER_PASSWORD);
    await page.getByLabel('Contraseña nueva').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Cambiar la contraseña' }).click();
    await page.getByRole('status').filter({ hasText: 'Contraseña cambiada' }).waitFor();
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.getByRole('heading', { level: 1, name: 'Iniciar sesión' }).waitFor();
    await signInThroughForm(page, world.studio, 'ana@example.com', NEW_PASSWORD);

    assert.deepEqual(seen.consoleErrors, []);
    assert.deepEqual(seen.serverErrors, []);
    assert.ok(
      seen.requests.every((url) => url.startsWith(h.url)),
      `only the server itself is called: ${seen.requests.filter((u) => !u.startsWith(h.url))}`,
    );
  });
}
