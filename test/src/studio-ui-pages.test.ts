// Studio in Chromium: every page at desktop and phone width — accessible (axe-core: no serious or critical
// violation), no sideways scroll at 375 px, no console error, no request outside the server; screenshots kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { filesForm, GUIDE_MD, waitIndexed } from './support/rag.js';
import { checkPage, openPage, signInThroughForm, startStudioWorld, type StudioWorld } from './support/studio-ui.js';

const PAGES: [path: string, title: string][] = [
  ['', 'Espacios'],
  ['claves', 'Claves de la API'],
  ['perfil', 'Perfil y sesiones'],
  ['espacios/demo/documentos', 'Documentos'],
  ['espacios/demo/preguntar', 'Preguntar'],
  ['espacios/demo/configuracion', 'Configuración del Cerebro'],
  ['espacios/demo/api', 'Ajustes de la API'],
  ['espacios/demo/creditos', 'Créditos'],
  ['espacios/demo/webhooks', 'Webhooks'],
  ['espacios/demo/marca', 'Marca'],
  ['espacios/demo/catalogo', 'Catálogo'],
  ['espacios/demo/conversaciones', 'Conversaciones'],
  ['espacios/demo/transcripcion', 'Transcripción'],
  ['espacios/demo/fuentes', 'Fuentes'],
  ['espacios/demo/landings', 'Landings'],
];

/** A document, products, an answered question and a handed-off conversation, so every page draws its content. */
async function seedContent(world: StudioWorld): Promise<void> {
  const { client } = world.h;
  assert.equal(
    (
      await client.post('/rag/demo/load_documents', {
        body: filesForm({ 'guia-larga-con-un-nombre-de-archivo-bastante-largo.md': GUIDE_MD }),
      })
    ).status,
    202,
  );
  await waitIndexed(client, 'demo');
  await client.post('/rag/demo/conversations', { json: { pregunta: '¿Cómo se instala?' } });
  await client.post('/companies/demo/webhooks', {
    json: {
      url: 'https://integraciones.tienda-de-ejemplo.example/cerebro/webhooks/documentos',
      eventos: ['documento.listo', 'ventas.conversacion_derivada'],
      descripcion: 'CRM de la tienda',
    },
  });
  await client.put('/mod/ventas/demo/productos/zapatillas-runner', {
    json: { nombre: 'Zapatillas Runner edición limitada', precio: 249900, moneda: 'COP', stock: 3 },
  });
  await client.post('/mod/ventas/demo/conversaciones', {
    json: {
      mensaje: 'Hola, quiero hablar con una persona',
      contacto: { nombre: 'Carla Ruiz', email: 'carla.ruiz.con.un.correo.largo@example.com' },
    },
  });
}

for (const width of [1280, 375]) {
  test(`Studio pages at ${width} px: accessible, no sideways scroll, nothing from outside`, async (t) => {
    const world = await startStudioWorld(t);
    await seedContent(world);
    const { page, seen } = await openPage(world, width);
    await signInThroughForm(page, world.studio);
    const modules = (await world.h.client.get('/companies')).body.espacios[0].modulos as string[];
    for (const [path, title] of PAGES) {
      if (path.endsWith('fuentes') && !modules.includes('fuentes')) continue;
      if (path.endsWith('landings') && !modules.includes('landing')) continue;
      await page.goto(world.studio + path);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.waitForLoadState('networkidle');
      await checkPage(page, `studio-${path.replace(/\//g, '-') || 'inicio'}-${width}`);
      if (path === 'espacios/demo/conversaciones') {
        await page.getByRole('button', { name: /Carla Ruiz/ }).click();
        await page.getByLabel('Responder como persona del equipo').waitFor();
        await checkPage(page, `studio-conversacion-abierta-${width}`);
      }
      if (path === 'claves') {
        await page
          .getByRole('row', { name: /pruebas-escribe/ })
          .getByRole('button', { name: /Uso/ })
          .click();
        await page.getByRole('img', { name: /Llamadas por día/ }).waitFor();
        await checkPage(page, `studio-claves-uso-${width}`);
      }
    }
    const outside = seen.requests.filter((url) => !url.startsWith(world.h.url) && !url.startsWith('data:'));
    assert.deepEqual(outside, [], 'no request leaves the server');
    assert.deepEqual(seen.consoleErrors, []);
    assert.deepEqual(seen.serverErrors, []);
  });
}

test('Studio on a phone: the navigation opens from the Menu button by keyboard and leads to a page', async (t) => {
  const world = await startStudioWorld(t);
  const { page } = await openPage(world, 375);
  await signInThroughForm(page, world.studio);
  const nav = page.getByRole('navigation', { name: 'Secciones' });
  assert.equal(await nav.isVisible(), false, 'folded on a phone');
  const menu = page.getByRole('button', { name: 'Menú' });
  await menu.focus();
  await page.keyboard.press('Enter');
  assert.equal(await menu.getAttribute('aria-expanded'), 'true');
  await nav.getByRole('link', { name: 'Créditos' }).click();
  await page.getByRole('heading', { level: 1, name: 'Créditos' }).waitFor();
  assert.equal(await nav.isVisible(), false, 'folds again after choosing');
  assert.equal(
    await page.evaluate<string>('document.activeElement?.tagName'),
    'H1',
    'focus moves to the new page title',
  );
  await checkPage(page, 'studio-menu-movil');
});

test('Studio under its own strict Content-Security-Policy: every page renders with no violation', async (t) => {
  const world = await startStudioWorld(t);
  await world.h.client.post('/rag/demo/conversations', { json: { pregunta: '¿Hay algo?' } });
  const { page } = await openPage(world, 1280, { enforceCsp: true });
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  const response = await page.goto(world.studio);
  assert.match(response!.headers()['content-security-policy'] ?? '', /script-src 'self'; style-src 'self'/);
  await signInThroughForm(page, world.studio);
  await page.evaluate(
    `document.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy: ' + e.violatedDirective))`,
  );
  for (const [path, title] of PAGES) {
    // Navigation inside the console (no reload), so the listener above stays and each page is drawn by the app.
    await page.evaluate(`history.pushState(null, '', '/studio/${path}'); dispatchEvent(new PopStateEvent('popstate'))`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.waitForLoadState('networkidle');
  }
  await page.goto(world.studio + 'espacios/demo/marca');
  await page.getByTestId('persona').waitFor();
  assert.deepEqual(violations, []);
});

test('Studio by keyboard: the first Tab reaches a visible skip link, and a key is created without a mouse', async (t) => {
  const world = await startStudioWorld(t);
  const { page } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await page.goto(world.studio + 'claves');
  await page.getByRole('heading', { level: 1, name: 'Claves de la API' }).waitFor();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Saltar al contenido' });
  assert.equal(await page.evaluate<string>('document.activeElement?.textContent ?? ""'), 'Saltar al contenido');
  assert.ok(await skip.isVisible(), 'visible once focused');
  await checkPage(page, 'studio-saltar-al-contenido');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate<string>('location.hash'), '#contenido', 'the skip link leads to the main content');

  await page.getByLabel('Nombre', { exact: true }).focus();
  await page.keyboard.type('integracion-teclado');
  await page.keyboard.press('Tab'); // first space
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'Crear la clave' }).focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('clave-secreta').waitFor();
  const created = (await world.h.client.get('/tokens')).body.tokens.find(
    (k: { nombre: string }) => k.nombre === 'integracion-teclado',
  );
  assert.deepEqual([created.espacios, created.permiso], [['demo'], 'lee']);
});
