// A published landing in Chromium, as a visitor meets it: no key and no cookie. The page loads at 375 and 1280 px
// with its form (axe clean, no console error, nothing requested beyond itself), the form is filled and sent under
// the page's enforced CSP (sandbox allow-forms, form-action 'self') and the lead reaches ventas and Studio, the page
// cannot reach any other route of the API (connect-src), and Studio publishes, shows the address, the counts and the
// leads, and unpublishes. Screenshots go to test-artifacts/screenshots/landing-publica-*.png and studio-landing-*.png.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { launchBrowser, screenshot, seriousA11yViolations, watchPage } from './support/browser.js';
import { checkLandingPage } from './support/landing-page-check.js';
import { withPassword } from './support/studio.js';
import { checkPage, goTo, openPage, signInThroughForm } from './support/studio-ui.js';

const PRODUCT = {
  id: 'zap-trail',
  nombre: 'Zapatilla Trail Andes',
  descripcion: 'Zapatilla de trail con suela de agarre profundo y puntera reforzada para montaña.',
  precio: 289900,
  moneda: 'COP',
  stock: 14,
};

async function readyLanding(h: TestHost, space: string): Promise<string> {
  assert.equal((await h.client.put(`/mod/ventas/${space}/productos/${PRODUCT.id}`, { json: PRODUCT })).status, 201);
  const created = await h.client.post(`/mod/landing/${space}/landings`, {
    json: {
      objetivo: 'Vender zapatillas de trail',
      tema: 'zapatillas de trail',
      productos: [PRODUCT.id],
      cta: { texto: 'Comprar ahora', url: 'https://tienda.example/trail' },
    },
  });
  assert.equal(created.status, 202, created.text);
  for (let i = 0; i < 400; i++) {
    const l = (await h.client.get(`/mod/landing/${space}/landings/${created.body.id}`)).body;
    if (l.estado !== 'generando') {
      assert.equal(l.estado, 'lista', JSON.stringify(l.versiones));
      return l.id;
    }
    await new Promise((r) => setTimeout(r, 60));
  }
  throw new Error('landing still generating');
}

async function startWorld(t: TestContext) {
  const h = await startTestHost(t, { discover: true, spaceId: 'demo', credits: 500 });
  await withPassword(h);
  const browser = await launchBrowser();
  t.after(() => browser.close());
  return { h, browser, studio: `${h.url}/studio/` };
}

test('a published landing for a visitor: loads without a key at 375 and 1280 px, its form sends a lead under the enforced CSP, and nothing else of the API is reachable from it', async (t) => {
  const { h, browser } = await startWorld(t);
  const id = await readyLanding(h, 'demo');
  const published = await h.client.post(`/mod/landing/demo/landings/${id}/publicacion`, { json: {} });
  assert.equal(published.status, 201, published.text);
  const url = `${h.url}${published.body.publicacion.ruta}`;

  for (const width of [375, 1280]) await checkLandingPage(browser, url, 'landing-publica', width);

  // As served: the page's own CSP enforced, a fresh context with no key and no cookie.
  const context = await browser.context({ width: 375, height: 900 });
  t.after(() => context.close());
  const page: Page = await context.newPage();
  const seen = watchPage(page);
  const response = await page.goto(url);
  assert.equal(response?.status(), 200);
  assert.match(response?.headers()['content-security-policy'] ?? '', /sandbox allow-forms$/);

  // From inside the page nothing of the API answers: connect-src falls back to default-src 'none'.
  const reach = await page.evaluate(async (api: string) => {
    const g = globalThis as any;
    const attempt = async (path: string) => {
      try {
        return String((await g.fetch(path)).status);
      } catch (err) {
        return (err as Error).name;
      }
    };
    return {
      origin: g.origin as string,
      landings: await attempt(`${api}/mod/landing/demo/landings`),
      health: await attempt(`${api}/health`),
      leads: await attempt(`${api}/mod/landing/demo/landings/x/contactos`),
    };
  }, `${h.url}/api`);
  assert.deepEqual(reach, { origin: 'null', landings: 'TypeError', health: 'TypeError', leads: 'TypeError' });
  // Without a key the same routes refuse anyway.
  assert.equal((await fetch(`${h.url}/api/mod/landing/demo/landings`)).status, 401);

  await page.getByLabel('Nombre').fill('Ana Pérez');
  await page.getByLabel('Correo electrónico o teléfono').fill('ana@example.com');
  await page.getByLabel('Mensaje (opcional)').fill('¿Hay talla 38?');
  await page.getByLabel('Acepto que usen estos datos para contactarme sobre esta consulta.').check();
  await Promise.all([page.waitForURL(/\/contacto$/), page.getByRole('button', { name: 'Enviar' }).click()]);
  await page.getByRole('heading', { level: 1, name: '¡Gracias!' }).waitFor();
  await screenshot(page, 'landing-publica-gracias-375');
  assert.deepEqual(
    seen.consoleErrors.filter((e) => !e.includes('Content Security Policy')),
    [],
    'only the blocked fetches above may complain',
  );

  const leads = (await h.client.get(`/mod/landing/demo/landings/${id}/contactos`)).body;
  assert.equal(leads.total, 1);
  assert.deepEqual([leads.contactos[0].nombre, leads.contactos[0].mensaje], ['Ana Pérez', '¿Hay talla 38?']);
  const conversation = (await h.client.get(`/mod/ventas/demo/conversaciones/${leads.contactos[0].conversacion}`)).body;
  assert.equal(conversation.estado, 'derivada');

  // The thanks page at both widths, axe clean (it is what the form answers: posted again from a fresh context).
  for (const width of [375, 1280]) {
    const ctx = await browser.context({ width, height: 900, bypassCSP: true });
    try {
      const p = await ctx.newPage();
      await p.goto(url);
      await p.getByLabel('Nombre').fill('Luis');
      await p.getByLabel('Correo electrónico o teléfono').fill('+57 300 123 4567');
      await p.getByLabel('Acepto que usen estos datos para contactarme sobre esta consulta.').check();
      await Promise.all([p.waitForURL(/\/contacto$/), p.getByRole('button', { name: 'Enviar' }).click()]);
      await p.getByRole('heading', { level: 1, name: '¡Gracias!' }).waitFor();
      assert.deepEqual(await seriousA11yViolations(p), [], `gracias @${width}`);
      await screenshot(p, `landing-publica-gracias-${width}`);
    } finally {
      await ctx.close();
    }
  }

  // The button goes through the page's own counter, then to the shop.
  const counted = (await h.client.get(`/mod/landing/demo/landings/${id}`)).body.estadisticas;
  assert.equal(counted.contactos, 3);
  assert.ok(counted.vistas >= 5, JSON.stringify(counted));
});

test('Studio publishes a landing, shows and copies its public address, its counts and leads, and unpublishes it (404 at once)', async (t) => {
  const world = await startWorld(t);
  const id = await readyLanding(world.h, 'demo');
  const { page, seen } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'espacios/demo/landings', 'Landings');
  await page.getByRole('button', { name: 'Abrir la landing Vender zapatillas de trail' }).click();
  await page.getByRole('heading', { name: 'Publicación' }).waitFor();
  await page.getByRole('button', { name: 'Publicar la versión 1' }).click();
  await page.getByRole('status').filter({ hasText: 'Landing publicada.' }).waitFor();
  await page.locator('.landing-item [data-publicada="1"]').filter({ hasText: 'Publicada (v1)' }).waitFor();
  const ruta = (await world.h.client.get(`/mod/landing/demo/landings/${id}`)).body.publicacion.ruta as string;
  const link = page.getByRole('link', { name: `${world.h.url}${ruta}` });
  await link.waitFor();

  // A visitor opens it and sends the form; Studio shows the counts and the lead.
  const visitor = await fetch(`${world.h.url}${ruta}`);
  assert.equal(visitor.status, 200);
  const sent = await fetch(`${world.h.url}${ruta}/contacto`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      nombre: 'Marta Gómez',
      contacto: 'marta@example.com',
      mensaje: 'Quiero dos pares para una carrera de montaña en diciembre.',
      consentimiento: 'si',
    }).toString(),
  });
  assert.equal(sent.status, 200);
  await page.reload();
  await page.getByRole('button', { name: 'Abrir la landing Vender zapatillas de trail' }).click();
  await page.getByRole('cell', { name: 'marta@example.com' }).waitFor();
  const counts = await page.locator('.publication dl.counts').innerText();
  assert.match(counts, /Visitas\s+1/);
  assert.match(counts, /Contactos\s+1/);
  await checkPage(page, 'studio-landing-publicada');
  await page.setViewportSize({ width: 375, height: 800 });
  await checkPage(page, 'studio-landing-publicada-375');
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole('button', { name: 'Despublicar la landing' }).click();
  await page.getByRole('button', { name: 'Sí, despublicar' }).click();
  await page.getByRole('status').filter({ hasText: 'Landing despublicada' }).waitFor();
  assert.equal((await fetch(`${world.h.url}${ruta}`)).status, 404);
  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
});
