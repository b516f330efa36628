// Studio in Chromium, members and roles (issue #26 items 1 and 6): the owner invites from «Miembros» and copies the
// link; the invitation page creates the member; the member sees only their role's pages and buttons; a role change
// and a removal end the member's session. At 1280 and 375 px, axe clean, no console error, nothing from outside.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  checkPage,
  goTo,
  openPage,
  signInThroughForm,
  startStudioWorld,
  type StudioWorld,
} from './support/studio-ui.js';

const PASSWORD = 'clave de la miembro 2026';

/** Owner side: invites `email` as `role` from the members page and returns the link Studio shows to copy. */
async function invite(page: Page, world: StudioWorld, email: string, role: string, shot: string): Promise<string> {
  await goTo(page, world.studio, 'espacios/demo/miembros', 'Miembros');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Rol', { exact: true }).selectOption(role);
  await page.getByRole('button', { name: 'Crear la invitación' }).click();
  const link = page.getByTestId('enlace-invitacion');
  await link.waitFor();
  await page.getByText('este servidor aún no envía correos').waitFor();
  await checkPage(page, shot);
  return (await link.innerText()).trim();
}

for (const width of [1280, 375]) {
  test(`Studio members at ${width} px: invite, accept, a member limited by role, role change and removal end the session`, async (t) => {
    const world = await startStudioWorld(t);
    const owner = await openPage(world, width);
    await signInThroughForm(owner.page, world.studio);
    const link = await invite(owner.page, world, 'ana@example.com', 'edita', `studio-miembros-invitar-${width}`);
    assert.match(link, /\/studio\/invitacion\?token=/);
    await owner.page.getByText('ana@example.com').first().waitFor();

    // The invited person opens the link in their own browser: reading it spends nothing.
    const ana = await openPage(world, width);
    await ana.page.goto(link);
    await ana.page.getByRole('heading', { level: 1, name: 'Aceptar la invitación' }).waitFor();
    await ana.page.getByText('como Edita').waitFor();
    await checkPage(ana.page, `studio-invitacion-${width}`);
    await ana.page.getByLabel('Tu nombre').fill('Ana Pérez');
    await ana.page.getByLabel('Elige una contraseña').fill(PASSWORD);
    await ana.page.getByRole('button', { name: 'Aceptar y entrar' }).click();
    await ana.page.getByRole('heading', { level: 1, name: 'Espacios' }).waitFor();
    assert.equal(new URL(ana.page.url()).search, '', 'the token leaves the address bar');
    await ana.page.getByText('Tu rol').waitFor();
    await checkPage(ana.page, `studio-miembro-espacios-${width}`);
    if (width < 800) await ana.page.getByRole('button', { name: 'Menú' }).click();
    const nav = ana.page.getByRole('navigation', { name: 'Secciones' });
    await nav.getByRole('link', { name: 'Documentos' }).waitFor();
    for (const hidden of ['Claves de la API', 'Actividad de la cuenta', 'Miembros', 'Ajustes de la API', 'Webhooks'])
      assert.equal(await nav.getByRole('link', { name: hidden, exact: true }).count(), 0, `${hidden} is not hers`);
    await nav.getByRole('link', { name: 'Perfil y sesiones', exact: true }).waitFor();
    await goTo(ana.page, world.studio, 'espacios/demo/documentos', 'Documentos');
    await ana.page.getByText('Elegir archivos').waitFor();
    await ana.page.goto(`${world.studio}espacios/demo/miembros`);
    await ana.page.getByText('no da acceso a esta página').waitFor();

    // The owner makes her `consulta`: her session ends at once.
    await goTo(owner.page, world.studio, 'espacios/demo/miembros', 'Miembros');
    await owner.page.getByLabel('Rol de Ana Pérez').selectOption('consulta');
    await owner.page.getByText('ahora tiene el rol Consulta').waitFor();
    await checkPage(owner.page, `studio-miembros-lista-${width}`);
    await ana.page.goto(`${world.studio}espacios/demo/documentos`);
    await ana.page.getByRole('heading', { level: 1, name: 'Iniciar sesión' }).waitFor();

    // Back in as `consulta`: she reads, and the buttons she cannot use are not there.
    await signInThroughForm(ana.page, world.studio, 'ana@example.com', PASSWORD);
    await goTo(ana.page, world.studio, 'espacios/demo/documentos', 'Documentos');
    await ana.page.getByRole('heading', { name: 'Documentos del espacio' }).waitFor();
    assert.equal(await ana.page.getByText('Elegir archivos').count(), 0, 'no upload for consulta');
    await goTo(ana.page, world.studio, 'espacios/demo/configuracion', 'Configuración del Cerebro');
    await ana.page.getByText('puedes consultar la configuración, no cambiarla').waitFor();
    assert.equal(await ana.page.getByRole('button', { name: 'Guardar cambios' }).count(), 0);
    assert.equal(await ana.page.getByRole('button', { name: 'Vaciar la caché' }).count(), 0);
    await checkPage(ana.page, `studio-miembro-consulta-${width}`);

    // Removed: her next request sends her to the sign-in form.
    await owner.page.getByRole('button', { name: 'Quitar Ana Pérez' }).click();
    await owner.page.getByRole('button', { name: 'Sí, quitar' }).click();
    await owner.page.getByText('ya no es miembro del espacio').waitFor();
    await ana.page.goto(`${world.studio}espacios/demo/documentos`);
    await ana.page.getByRole('heading', { level: 1, name: 'Iniciar sesión' }).waitFor();

    for (const seen of [owner.seen, ana.seen]) {
      assert.deepEqual(seen.consoleErrors, []);
      assert.deepEqual(seen.serverErrors, []);
      assert.ok(
        seen.requests.every((url) => url.startsWith(world.h.url)),
        `only the server itself is called: ${seen.requests.filter((u) => !u.startsWith(world.h.url))}`,
      );
    }
  });
}

test('Studio invitation page: a used link says so and offers the sign-in form', async (t) => {
  const world = await startStudioWorld(t);
  const owner = await openPage(world);
  await signInThroughForm(owner.page, world.studio);
  const link = await invite(owner.page, world, 'bea@example.com', 'consulta', 'studio-miembros-invitar-consulta');
  const first = await openPage(world);
  await first.page.goto(link);
  await first.page.getByLabel('Tu nombre').fill('Bea');
  await first.page.getByLabel('Elige una contraseña').fill(PASSWORD);
  await first.page.getByRole('button', { name: 'Aceptar y entrar' }).click();
  await first.page.getByRole('heading', { level: 1, name: 'Espacios' }).waitFor();

  const again = await openPage(world, 375);
  await again.page.goto(link);
  await again.page.getByRole('alert').filter({ hasText: 'La invitación no es válida' }).waitFor();
  await again.page.getByRole('link', { name: 'Entrar con tu email y contraseña' }).waitFor();
  await checkPage(again.page, 'studio-invitacion-usada-375');
  assert.deepEqual(again.seen.serverErrors, []);
});

test('Studio keys for an administra member: only the spaces they administer, and the key is shown once', async (t) => {
  const world = await startStudioWorld(t);
  const owner = await openPage(world);
  await signInThroughForm(owner.page, world.studio);
  const link = await invite(owner.page, world, 'carla@example.com', 'administra', 'studio-miembros-invitar-administra');
  const { page, seen } = await openPage(world);
  await page.goto(link);
  await page.getByLabel('Tu nombre').fill('Carla');
  await page.getByLabel('Elige una contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Aceptar y entrar' }).click();
  await page.getByRole('heading', { level: 1, name: 'Espacios' }).waitFor();
  await goTo(page, world.studio, 'claves', 'Claves de la API');
  await page.getByText('tus claves solo alcanzan los espacios que administras').waitFor();
  await page.getByLabel('Nombre').fill('widget-carla');
  await page.getByRole('checkbox', { name: 'demo' }).check();
  await page.getByRole('button', { name: 'Crear la clave' }).click();
  await page.getByTestId('clave-secreta').waitFor();
  await checkPage(page, 'studio-miembro-claves-1280');
  const listed = (await world.h.client.get('/tokens')).body.tokens as { nombre: string; espacios: string[] }[];
  assert.deepEqual(listed.find((k) => k.nombre === 'widget-carla')?.espacios, ['demo'], 'the owner’s key');
  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
});

test('Studio for a consulta member: module pages read, without the buttons of changes (375 px)', async (t) => {
  const world = await startStudioWorld(t);
  const owner = await openPage(world);
  await signInThroughForm(owner.page, world.studio);
  const link = await invite(owner.page, world, 'dora@example.com', 'consulta', 'studio-miembros-invitar-dora');
  const { page, seen } = await openPage(world, 375);
  await page.goto(link);
  await page.getByLabel('Tu nombre').fill('Dora');
  await page.getByLabel('Elige una contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Aceptar y entrar' }).click();
  await page.getByRole('heading', { level: 1, name: 'Espacios' }).waitFor();

  await goTo(page, world.studio, 'espacios/demo/catalogo', 'Catálogo');
  await page.getByRole('heading', { name: 'Productos' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Añadir producto' }).count(), 0);
  assert.equal(await page.getByText('Elegir archivo CSV').count(), 0);
  await checkPage(page, 'studio-miembro-consulta-catalogo-375');
  await goTo(page, world.studio, 'espacios/demo/marca', 'Marca');
  await page.getByText('puedes consultar la marca, no cambiarla').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Guardar la marca' }).count(), 0);
  await goTo(page, world.studio, 'espacios/demo/fuentes', 'Fuentes');
  await page.getByRole('heading', { name: 'Fuentes del espacio' }).waitFor();
  assert.equal(await page.getByRole('heading', { name: 'Nueva fuente' }).count(), 0);
  assert.equal(await page.getByRole('heading', { name: 'Nueva ficha' }).count(), 0);
  await goTo(page, world.studio, 'espacios/demo/landings', 'Landings');
  await page.getByRole('heading', { name: 'Landings del espacio' }).waitFor();
  assert.equal(await page.getByRole('heading', { name: 'Nueva landing' }).count(), 0);
  await page.goto(`${world.studio}espacios/demo/transcripcion`);
  await page.getByText('no da acceso a esta página').waitFor();
  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
});
