// Landing pages in a real browser (Debian chromium through playwright-core): every generated landing at 375 px and
// 1280 px renders without horizontal scroll or console errors, requests nothing beyond its own document, and
// axe-core finds no serious or critical violation; screenshots go to test-artifacts/screenshots/. The served
// page runs in an opaque origin (CSP sandbox), and no sanitized OWASP XSS vector runs or requests anything.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { sanitizeLanding } from '../../plugins/landing/dist/safety/sanitize.js';
import { pageWith, XSS_VECTORS } from '../../plugins/landing/dist/safety/xss-vectors.js';
import { launchBrowser, watchPage } from './support/browser.js';
import { checkLandingPage } from './support/landing-page-check.js';
import { filesForm, waitIndexed } from './support/rag.js';

const PRODUCTS = [
  {
    id: 'trail',
    nombre: 'Zapatilla Trail Andes',
    descripcion: 'Zapatilla de trail con suela de agarre profundo y puntera reforzada para montaña.',
    precio: 289900,
    moneda: 'COP',
    stock: 14,
  },
  {
    id: 'ruta',
    nombre: 'Zapatilla Ruta Ligera',
    descripcion: 'Zapatilla de asfalto ligera y transpirable para entrenar a diario.',
    precio: 219900,
    moneda: 'COP',
    stock: 3,
  },
  {
    id: 'maraton',
    nombre: 'Zapatilla Maratón Pro con placa de carbono',
    descripcion: 'Placa de carbono y espuma reactiva para competir en distancias largas.',
    precio: 649900,
    moneda: 'COP',
    stock: 0,
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

const GUIDE = `# Zapatillas de running

Las zapatillas de running de la tienda están pensadas para corredores que entrenan varias veces por semana y quieren cuidar sus articulaciones.

## Beneficios

El principal beneficio de las zapatillas de running es la amortiguación: la espuma de la mediasuela reduce el impacto en las rodillas en cada zancada.

Otra ventaja de las zapatillas de running es el agarre: la suela de caucho se agarra al asfalto mojado y a la tierra suelta.

Elegir zapatillas de running transpirables evita el calor: la malla superior deja salir el sudor durante las tiradas largas.

## Características

Las zapatillas de running tienen plantilla extraíble, cordones planos que no se sueltan y refuerzo en el talón.

## Garantía

La garantía de las zapatillas de running cubre defectos de fabricación durante seis meses desde la compra.

## Pedidos

Un pedido se hace desde la web o por WhatsApp y se confirma con el pago.

## Envío

El envío se hace con transportadora a todo el país y llega en pocos días hábiles.
`;

const BRAND = {
  name: 'Deportes Ruiz',
  activo: true,
  identidad: { nombre_agente: 'Sofía', rol: 'asesora de ventas', linea: 'ropa deportiva' },
  estilo: {
    tono: ['formal'],
    rasgos: ['experto'],
    emojis_permitidos: ['🏃', '👟'],
    emojis_obligatorios: ['👟'],
    max_lineas: 6,
    solo_texto_plano: false,
  },
};

const SHOES = {
  objetivo: 'Vender más zapatillas en temporada de carreras',
  tema: 'zapatillas de running',
  productos: ['trail', 'ruta', 'maraton'],
  publico: 'corredores que entrenan varias veces por semana',
  cta: { texto: 'Comprar ahora', url: 'https://tienda.example/zapatillas' },
};

async function settle(h: TestHost, space: string, id: string): Promise<any> {
  for (let i = 0; i < 400; i++) {
    const res = await h.client.get(`/mod/landing/${space}/landings/${id}`);
    if (res.body.estado !== 'generando') return res.body;
    await new Promise((r) => setTimeout(r, 60));
  }
  throw new Error('landing still generating');
}

async function create(h: TestHost, space: string, body: unknown): Promise<string> {
  const res = await h.client.post(`/mod/landing/${space}/landings`, { json: body });
  assert.equal(res.status, 202, res.text);
  const l = await settle(h, space, res.body.id);
  assert.equal(l.estado, 'lista', JSON.stringify(l.versiones.at(-1)));
  return l.id;
}

async function refine(h: TestHost, space: string, id: string, instrucciones: string): Promise<void> {
  assert.equal(
    (await h.client.post(`/mod/landing/${space}/landings/${id}/refinar`, { json: { instrucciones } })).status,
    202,
  );
  const l = await settle(h, space, id);
  assert.equal(l.estado, 'lista', JSON.stringify(l.versiones.at(-1)));
}

test('every generated landing renders at 375 and 1280 px: no horizontal scroll, no console error, no request, no serious axe violation', async (t) => {
  const h = await startTestHost(t, { discover: true, spaceId: 'tienda', credits: 100_000 });
  const space = h.spaceId;
  for (const p of PRODUCTS)
    assert.equal((await h.client.put(`/mod/ventas/${space}/productos/${p.id}`, { json: p })).status, 201);
  assert.equal(
    (await h.client.post(`/rag/${space}/load_documents`, { body: filesForm({ 'guia-zapatillas.md': GUIDE }) })).status,
    202,
  );
  await waitIndexed(h.client, space);

  const landings: { name: string; id: string; version?: number }[] = [];
  const plain = await create(h, space, SHOES);
  landings.push({ name: 'azul-sin-marca', id: plain, version: 1 });
  await refine(
    h,
    space,
    plain,
    'tema: oscuro; más larga; titular: Zapatillas para correr más lejos y con menos impacto',
  );
  landings.push({ name: 'oscuro-refinada', id: plain, version: 2 });
  await refine(h, space, plain, 'quita la portada; tema: violeta; más corta');
  landings.push({ name: 'violeta-sin-portada', id: plain, version: 3 });
  landings.push({
    name: 'en-verde-corta',
    id: await create(h, space, {
      objetivo: 'Sell trail shoes',
      productos: ['trail', 'ruta'],
      idioma: 'en',
      tema_color: 'verde',
      longitud: 'corta',
      cta: { texto: 'Buy now', url: 'https://shop.example/trail' },
    }),
  });

  assert.equal((await h.client.patch(`/mod/marca/${space}/config`, { json: BRAND })).status, 200);
  const branded = await h.client.post(`/mod/landing/${space}/landings`, {
    json: {
      ...SHOES,
      productos: [...SHOES.productos, 'calcetin'],
      tema_color: 'coral',
      contacto: 'ventas@tienda.example',
    },
  });
  assert.equal((await settle(h, space, branded.body.id)).estado, 'faltan_datos');
  assert.equal(
    (
      await h.client.post(`/mod/landing/${space}/landings/${branded.body.id}/completar`, {
        json: { respuestas: { 'precio:calcetin': 'sin_precio' } },
      })
    ).status,
    202,
  );
  assert.equal((await settle(h, space, branded.body.id)).estado, 'lista');
  landings.push({ name: 'coral-con-marca', id: branded.body.id });
  landings.push({
    name: 'neutro-con-marca',
    id: await create(h, space, {
      ...SHOES,
      tema_color: 'neutro',
      secciones: ['hero', 'precios', 'preguntas_frecuentes', 'contacto', 'cta'],
      contacto: '+57 300 123 4567',
    }),
  });

  const browser = await launchBrowser();
  t.after(() => browser.close());
  for (const l of landings) {
    const url = `${h.url}/api/mod/landing/${space}/landings/${l.id}/html${l.version ? `?version=${l.version}` : ''}`;
    for (const width of [375, 1280])
      await checkLandingPage(browser, url, `landing-${l.name}`, width, { authorization: `Bearer ${h.writeKey}` });
  }

  // Served without bypassing its CSP, the page lives in an opaque origin: not the API's, no cookies, no storage.
  const context = await browser.context({ width: 375 });
  await context.setExtraHTTPHeaders({ authorization: `Bearer ${h.writeKey}` });
  t.after(() => context.close());
  const page = await context.newPage();
  const response = await page.goto(`${h.url}/api/mod/landing/${space}/landings/${plain}/html`);
  assert.match(response?.headers()['content-security-policy'] ?? '', /sandbox/);
  // Evaluated by the test harness (scripts of the page itself would not run): the origin is opaque, and cookies and
  // storage are out of reach.
  const seenFromInside = await page.evaluate(() => {
    const g = globalThis as any;
    const attempt = (read: () => unknown) => {
      try {
        return String(read());
      } catch (err) {
        return (err as Error).name;
      }
    };
    return {
      origin: g.origin as string,
      cookie: attempt(() => g.document.cookie),
      storage: attempt(() => g.localStorage.length),
    };
  });
  assert.deepEqual(seenFromInside, { origin: 'null', cookie: 'SecurityError', storage: 'SecurityError' });
});

test('no sanitized OWASP XSS vector runs script, opens a dialog or requests anything in Chromium', async (t) => {
  const browser = await launchBrowser();
  t.after(() => browser.close());
  const context = await browser.context({ width: 375 });
  t.after(() => context.close());
  const page = await context.newPage();
  const seen = watchPage(page);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.exposeFunction('__xss', (name: string) => {
    dialogs.push(`ran: ${name}`);
  });
  for (const vector of XSS_VECTORS) {
    for (const html of [pageWith(vector.html), pageWith('', vector.html)]) {
      // A vector that survived would call alert(); hover and focus give event-handler vectors their chance.
      await page.setContent(sanitizeLanding(html), { waitUntil: 'load' });
      await page.mouse.move(10, 10);
      await page.mouse.move(200, 120);
      await page.keyboard.press('Tab');
    }
  }
  await page.waitForTimeout(300);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(
    seen.requests.filter((r) => r !== 'about:blank'),
    [],
  );
  assert.deepEqual(seen.consoleErrors, []);
});
