// Studio in Chromium against the real modules: a source crawling a loopback site, launched and followed to its end,
// a ficha assembled from what it brought and read with its provenance; a landing that asks questions, answered,
// refined, refused HTML listed problem by problem, and the ready page previewed in a sandboxed frame.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestHost } from '@cerebro/sdk/testing';
import { startTestSite } from '@cerebro/plugin-fuentes/testing';
import { launchBrowser } from './support/browser.js';
import { withPassword } from './support/studio.js';
import { checkPage, goTo, openPage, signInThroughForm, type StudioWorld } from './support/studio-ui.js';

/** The Studio world of the other UI tests, with the loopback test site allowed through fuentes' address guard. */
async function startWorld(t: TestContext): Promise<StudioWorld> {
  const h = await startTestHost(t, {
    discover: true,
    spaceId: 'demo',
    credits: 500,
    env: { CEREBRO_FUENTES_PERMITIDOS: 'localhost', CEREBRO_FUENTES_PAUSA_MS: '0' },
  });
  await withPassword(h);
  const browser = await launchBrowser();
  t.after(() => browser.close());
  return { h, browser, studio: `${h.url}/studio/` };
}

/** Both widths the console supports: a desktop and a 375 px phone. */
async function checkBothWidths(
  page: Page,
  name: string,
  before: () => Promise<unknown> = async () => undefined,
): Promise<void> {
  await before();
  await checkPage(page, name);
  await page.setViewportSize({ width: 375, height: 800 });
  await before();
  await checkPage(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('Studio fuentes: a site source is created, launched and followed to completada; a ficha is assembled and read with its sources', async (t) => {
  const site = await startTestSite({ slowMs: 200, hugeBytes: 64 * 1024 });
  t.after(() => site.close());
  const world = await startWorld(t);
  const { page, seen } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'espacios/demo/fuentes', 'Fuentes');
  await page.getByText('Todavía no hay fuentes.').waitFor();
  await checkBothWidths(page, 'studio-fuentes-vacia');

  // A crawl of /docs/ one hop deep, created without launching, then launched by its button.
  await page.getByLabel('Tipo').selectOption('sitio');
  await page.getByLabel('Página de inicio del rastreo').fill(`${site.url}/docs/precios.html`);
  await page.getByLabel('Nombre (opcional)').fill('Documentación de Sol');
  await page.getByLabel('Solo rutas que empiezan por').fill('/docs/');
  await page.getByLabel('Profundidad (saltos de enlace desde el inicio)').fill('1');
  await page.getByLabel('Repetir cada (horas, opcional)').fill('24');
  await page.getByLabel('Lanzarla ahora').uncheck();
  await page.getByRole('button', { name: 'Crear la fuente' }).click();
  await page.getByRole('status').filter({ hasText: 'Fuente «Documentación de Sol» creada.' }).waitFor();
  const created = (await world.h.client.get('/mod/fuentes/demo/fuentes')).body.fuentes[0];
  assert.deepEqual(
    [created.tipo, created.prefijo, created.profundidad, created.cada_horas, created.ultima_ejecucion],
    ['sitio', '/docs/', 1, 24, null],
  );
  await page.getByText('Todavía no se ha ejecutado.').waitFor();

  await page.getByRole('button', { name: 'Lanzar Documentación de Sol' }).click();
  // The page follows the run by itself (polling) until it ends.
  await page.locator('[data-estado-ejecucion="completada"]').waitFor({ timeout: 60_000 });
  const run = (await world.h.client.get(`/mod/fuentes/demo/fuentes/${created.id}`)).body.ultima_ejecucion;
  assert.equal(run.estado, 'completada');
  const counts = page.getByRole('definition');
  assert.ok((await counts.count()) >= 8);
  const shown = await page.locator('dl.counts').innerText();
  assert.match(shown, new RegExp(`Nuevas\\s+${run.contadores.nuevas}`));
  assert.match(shown, new RegExp(`Fallidas\\s+${run.contadores.fallidas}`));
  assert.ok(run.contadores.nuevas >= 3, JSON.stringify(run.contadores));
  // The errors per URL are shown on demand.
  assert.ok(run.errores.length >= 1, JSON.stringify(run));
  const errors = page.locator('details.run-errors');
  assert.equal(await errors.locator('li').first().isVisible(), false);
  await errors.locator('summary').click();
  assert.match(await errors.innerText(), /falta\.html/);
  await checkBothWidths(page, 'studio-fuentes-ejecucion');

  // A feed source, launched at creation: its February entry gives the Básico plan another price.
  await page.getByLabel('Tipo').selectOption('feed');
  await page.getByLabel('Dirección del feed').fill(`${site.url}/feed.xml`);
  await page.getByLabel('Nombre (opcional)').fill('Blog de Sol');
  await page.getByRole('button', { name: 'Crear la fuente' }).click();
  await page.getByRole('status').filter({ hasText: 'Fuente «Blog de Sol» creada y lanzada.' }).waitFor();
  await page.locator('[data-fuente] [data-estado-ejecucion="completada"]').nth(1).waitFor({ timeout: 60_000 });

  // A ficha restricted to both sources, followed until ready, read with its value, the pages it came from and the
  // conflict between them.
  await world.h.waitForIndexing(60_000);
  await page.getByLabel('Tema', { exact: true }).fill('Plan Básico');
  await page.getByLabel('Campos (opcional, uno por línea)').fill('precio\nfecha de lanzamiento');
  const restrict = page.getByRole('group', { name: /Solo con los documentos de estas fuentes/ });
  await restrict.getByLabel('Documentación de Sol').check();
  await restrict.getByLabel('Blog de Sol').check();
  await page.getByRole('button', { name: 'Armar la ficha' }).click();
  await page.getByRole('status').filter({ hasText: 'Ficha «Plan Básico» encargada' }).waitFor();
  await page.locator('[data-estado-ficha="lista"]').waitFor({ timeout: 90_000 });
  await page.getByRole('button', { name: 'Leer la ficha Plan Básico' }).click();
  const precio = page.locator('[data-campo="precio"]');
  await precio.waitFor();
  assert.match(await precio.innerText(), /1[02] euros al mes/);
  const conflict = precio.getByRole('note');
  assert.match(await conflict.innerText(), /Conflicto entre documentos/);
  assert.match(await conflict.innerText(), /10 euros/);
  assert.match(await conflict.innerText(), /12 euros/);
  assert.match(await page.locator('[data-campo="fecha de lanzamiento"]').innerText(), /Sin datos\./);
  const cites = await page.locator('.ficha-sources a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  assert.ok(
    cites.some((h) => /\/docs\/precios\.html$/.test(h ?? '')),
    JSON.stringify(cites),
  );
  assert.ok(
    cites.some((h) => /\/blog\/2\.html$/.test(h ?? '')),
    JSON.stringify(cites),
  );
  await page.getByText('Ver el Markdown').click();
  assert.match(await page.getByLabel('Markdown de la ficha').innerText(), /^# Plan Básico\n\n## precio/);
  await checkBothWidths(page, 'studio-fuentes-ficha');

  // Deleting asks first and can keep the documents the source brought.
  const docsBefore = (await world.h.client.get('/rag/demo/documents')).body.total;
  await page.getByRole('button', { name: 'Eliminar Documentación de Sol' }).click();
  await page
    .getByRole('group', { name: 'Confirmar borrado de Documentación de Sol' })
    .getByLabel(/Conservar sus/)
    .check();
  await page.getByRole('button', { name: 'Sí, eliminar' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /Se eliminó «Documentación de Sol»: 0 documentos eliminados/ })
    .waitFor();
  assert.equal((await world.h.client.get('/mod/fuentes/demo/fuentes')).body.total, 1);
  assert.equal((await world.h.client.get('/rag/demo/documents')).body.total, docsBefore);
  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
});

test('Studio fuentes: a list of addresses launched at creation shows its run live and is cancelled from the page', async (t) => {
  const site = await startTestSite({ slowMs: 15_000 });
  t.after(() => site.close());
  const world = await startWorld(t);
  const { page, seen } = await openPage(world, 375);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'espacios/demo/fuentes', 'Fuentes');
  await page.getByLabel('Tipo').selectOption('lista');
  await page
    .getByLabel('Direcciones (una por línea, hasta 500)')
    .fill(`${site.url}/docs/lento.html\n${site.url}/docs/soporte.html\n`);
  await page.getByLabel('Nombre (opcional)').fill('Páginas sueltas');
  await page.getByRole('button', { name: 'Crear la fuente' }).click();
  await page.getByRole('status').filter({ hasText: 'creada y lanzada' }).waitFor();
  const source = (await world.h.client.get('/mod/fuentes/demo/fuentes')).body.fuentes[0];
  assert.deepEqual([source.tipo, source.urls.length, source.ultima_ejecucion?.origen], ['lista', 2, 'creacion']);
  // The page's own polling shows the run working (the slow page holds it) without a reload.
  await page.locator('[data-estado-ejecucion="ejecutando"]').waitFor({ timeout: 15_000 });
  await checkPage(page, 'studio-fuentes-ejecutando-375');
  await page.getByRole('button', { name: 'Cancelar la ejecución de Páginas sueltas' }).click();
  await page.locator('[data-estado-ejecucion="cancelada"]').waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Lanzar Páginas sueltas' }).waitFor();
  assert.equal(
    (await world.h.client.get(`/mod/fuentes/demo/fuentes/${source.id}`)).body.ultima_ejecucion.estado,
    'cancelada',
  );
  // A refused creation shows the module's own 422 message.
  await page.getByLabel('Tipo').selectOption('url');
  await page.getByLabel('Dirección de la página').fill('https://usuario:clave@example.com/');
  await page.getByRole('button', { name: 'Crear la fuente' }).click();
  await page.getByRole('alert').filter({ hasText: 'No se guardó.' }).waitFor();
  assert.equal((await world.h.client.get('/mod/fuentes/demo/fuentes')).body.total, 1);
  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
});

const PRODUCTS = [
  {
    id: 'zap-trail',
    nombre: 'Zapatilla Trail Andes',
    descripcion: 'Zapatilla de trail con suela de agarre profundo.',
    precio: 289900,
    moneda: 'COP',
    stock: 14,
  },
  {
    id: 'calcetin',
    nombre: 'Calcetines técnicos',
    descripcion: 'Calcetines sin costuras que evitan ampollas.',
    precio: 0,
    moneda: 'COP',
    stock: 40,
  },
];

test('Studio landings: questions answered in a form, the ready page previewed in a sandboxed frame, refined, refused HTML listed', async (t) => {
  const world = await startWorld(t);
  for (const p of PRODUCTS)
    assert.equal((await world.h.client.put(`/mod/ventas/demo/productos/${p.id}`, { json: p })).status, 201);
  const { page, seen } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'espacios/demo/landings', 'Landings');
  await page.getByText('Todavía no hay landings.').waitFor();

  await page.getByLabel('Objetivo').fill('Vender el equipo de running');
  await page.getByLabel('Tema').fill('equipo de running');
  await page.getByLabel(/Zapatilla Trail Andes/).check();
  await page.getByLabel(/Calcetines técnicos/).check();
  await page.getByLabel('Texto del botón').fill('Lo quiero');
  await checkBothWidths(page, 'studio-landings-formulario');
  await page.getByRole('button', { name: 'Crear la landing' }).click();
  await page.getByRole('status').filter({ hasText: 'Landing encargada' }).waitFor();

  // No CTA address and a product priced 0: the version asks, and the page shows the questions as a form.
  await page.locator('[data-estado-landing="faltan_datos"]').waitFor({ timeout: 30_000 });
  await page.getByRole('heading', { name: 'Faltan datos para terminar la página' }).waitFor();
  await checkBothWidths(page, 'studio-landings-preguntas');
  const id = (await world.h.client.get('/mod/landing/demo/landings')).body.landings[0].id as string;
  await page.locator('form.questions input[type="text"]').first().fill('https://tienda.example/equipo');
  await page.getByLabel('Mostrar «Precio a consultar»').check();
  await page.getByRole('button', { name: 'Enviar las respuestas' }).click();
  await page.locator('[data-estado-landing="lista"]').waitFor({ timeout: 30_000 });

  // The ready version in a frame that runs nothing: sandbox="" and the module's /html route.
  const frame = page.locator('iframe.landing-frame');
  await frame.waitFor();
  assert.equal(await frame.getAttribute('sandbox'), '');
  assert.equal(await frame.getAttribute('src'), `/api/mod/landing/demo/landings/${id}/html?version=1`);
  const inside = page.frameLocator('iframe.landing-frame');
  await inside.getByText('Precio a consultar').first().waitFor();
  assert.equal(await inside.locator('h1').count(), 1);
  assert.match(await inside.locator('body').innerText(), /289\.900 COP/);
  // A sandboxed frame has its own renderer process: scrolled into view, it is painted before the screenshot.
  const showFrame = async () => {
    await frame.scrollIntoViewIfNeeded();
    await inside.locator('h1').waitFor();
    await page.waitForTimeout(300);
  };
  await checkBothWidths(page, 'studio-landings-lista', showFrame);

  // Refine with an instruction of the documented set: version 2, previewed in turn.
  await page.getByText('Refinar con instrucciones').click();
  await page.getByLabel('Instrucciones (una por línea o separadas por «;»)').fill('titular: Corre con todo el equipo');
  await page.getByRole('button', { name: 'Refinar (1 crédito)' }).click();
  await page.getByRole('row', { name: /v2.*Lista/ }).waitFor({ timeout: 30_000 });
  await inside.getByRole('heading', { level: 1, name: 'Corre con todo el equipo' }).waitFor();

  // HTML pasted by hand that breaks the rules: every problem of the 422 is listed, nothing stored.
  await page.getByText('Pegar HTML editado').click();
  await page
    .getByLabel('HTML editado a mano')
    .fill(
      '<html><body><h1 onclick="alert(1)">Hola</h1><script>alert(2)</script><img src="https://x.example/a.png"></body></html>',
    );
  await page.getByRole('button', { name: 'Validar y guardar' }).click();
  const problems = page.getByTestId('problemas-html');
  await problems.waitFor();
  const listed = await problems.locator('li').count();
  assert.ok(listed >= 4, await problems.innerText());
  const api = await world.h.client.get(`/mod/landing/demo/landings/${id}`);
  assert.equal(api.body.versiones.length, 2, 'a refused HTML stores no version');
  await checkBothWidths(page, 'studio-landings-validar', showFrame);

  // Delete asks first.
  await page.getByRole('button', { name: 'Eliminar la landing' }).click();
  await page.getByRole('button', { name: 'Sí, eliminar la landing y sus versiones' }).click();
  await page.getByText('Todavía no hay landings.').waitFor();
  assert.equal((await world.h.client.get(`/mod/landing/demo/landings/${id}`)).status, 404);
  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
});

test("Studio landings: the /html route may be framed by Studio only (frame-ancestors 'self'), is still sandboxed, and loads under Studio's enforced CSP", async (t) => {
  const world = await startWorld(t);
  await world.h.client.put('/mod/ventas/demo/productos/zap-trail', { json: PRODUCTS[0] });
  const created = await world.h.client.post('/mod/landing/demo/landings', {
    json: {
      objetivo: 'Vender zapatillas',
      productos: ['zap-trail'],
      cta: { texto: 'Comprar', url: 'https://tienda.example' },
    },
  });
  assert.equal(created.status, 202, created.text);
  const until = Date.now() + 30_000;
  let l = created.body;
  while (l.estado === 'generando' && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    l = (await world.h.client.get(`/mod/landing/demo/landings/${l.id}`)).body;
  }
  assert.equal(l.estado, 'lista', JSON.stringify(l.versiones));
  const html = await world.h.client.get(`/mod/landing/demo/landings/${l.id}/html`);
  const csp = html.headers.get('content-security-policy') ?? '';
  assert.match(csp, /frame-ancestors 'self';/);
  assert.match(csp, /; sandbox$/);
  assert.equal(html.headers.get('x-frame-options'), null, 'nothing else forbids the same-origin frame');
  assert.equal(html.headers.get('cross-origin-resource-policy'), 'same-origin');

  // In Chromium with Studio's own CSP enforced (frame-src 'self'), the preview loads: both policies allow it.
  const { page, seen } = await openPage(world, 1280, { enforceCsp: true });
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'espacios/demo/landings', 'Landings');
  await page.getByRole('button', { name: 'Abrir la landing Vender zapatillas' }).click();
  await page.frameLocator('iframe.landing-frame').getByText('289.900 COP').first().waitFor();
  assert.deepEqual(
    seen.consoleErrors.filter((e) => /Content Security Policy|frame/i.test(e)),
    [],
  );

  // A version waiting for answers is cancelled from the page (its credits go back: the module's own rule).
  const asking = await world.h.client.post('/mod/landing/demo/landings', {
    json: { objetivo: 'Vender más trail', productos: ['zap-trail'] },
  });
  assert.equal(asking.status, 202, asking.text);
  await page.reload();
  await page.getByRole('button', { name: 'Abrir la landing Vender más trail' }).click();
  await page.locator('[data-estado-landing="faltan_datos"]').waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Cancelar la versión en curso' }).click();
  await page.locator('[data-estado-landing="cancelada"]').waitFor();
  await page.getByRole('status').filter({ hasText: 'Versión cancelada' }).waitFor();
  assert.equal((await world.h.client.get(`/mod/landing/demo/landings/${asking.body.id}`)).body.estado, 'cancelada');
});
