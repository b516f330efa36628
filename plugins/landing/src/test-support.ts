// Shared by the HTTP tests of the module: a running-shoe shop with its catalog (ventas), a guide in its documents
// (the Cerebro) and, optionally, its brand (marca), on a real test host.
import assert from 'node:assert/strict';
import { startTestHost, type TestHost, type TestHostOptions } from '@cerebro/sdk/testing';
import marca from '@cerebro/plugin-marca';
import ventas from '@cerebro/plugin-ventas';
import landing from './index.js';

export { landing, marca, ventas };

export const PRODUCTS = [
  {
    id: 'zap-trail',
    nombre: 'Zapatilla Trail Andes',
    descripcion: 'Zapatilla de trail con suela de agarre profundo y puntera reforzada.',
    precio: 289900,
    moneda: 'COP',
    stock: 14,
  },
  {
    id: 'zap-ruta',
    nombre: 'Zapatilla Ruta Ligera',
    descripcion: 'Zapatilla de asfalto ligera y transpirable para entrenar a diario.',
    precio: 219900,
    moneda: 'COP',
    stock: 3,
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

export const GUIDE = `# Zapatillas de running

Las zapatillas de running de la tienda están pensadas para corredores que entrenan varias veces por semana.

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

export const BRAND = {
  name: 'Deportes Ruiz',
  activo: true,
  identidad: { nombre_agente: 'Sofía', rol: 'asesora de ventas', linea: 'ropa deportiva' },
  estilo: {
    tono: ['formal'],
    rasgos: ['experto'],
    emojis_permitidos: ['🏃'],
    emojis_obligatorios: ['🏃'],
    max_lineas: 6,
    solo_texto_plano: false,
  },
};

export interface ShopOptions extends TestHostOptions {
  /** Send the brand to marca (needs marca loaded). Default false. */
  brand?: boolean;
  /** Upload the guide (or these files, by name) and wait for it to be indexed. Default true. */
  documents?: boolean | Record<string, string>;
}

export async function startShop(t: { after(fn: () => unknown): void }, options: ShopOptions = {}): Promise<TestHost> {
  const { brand = false, documents = true, ...hostOptions } = options;
  const h = await startTestHost(t, { plugins: [marca, ventas, landing], ...hostOptions });
  for (const p of PRODUCTS)
    assert.equal((await h.client.put(`/mod/ventas/${h.spaceId}/productos/${p.id}`, { json: p })).status, 201);
  if (brand) assert.equal((await h.client.patch(`/mod/marca/${h.spaceId}/config`, { json: BRAND })).status, 200);
  if (documents) {
    const form = new FormData();
    const files = documents === true ? { 'guia-zapatillas.md': GUIDE } : documents;
    for (const [name, content] of Object.entries(files)) form.append('archivos', new Blob([content]), name);
    assert.equal((await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: form })).status, 202);
    const until = Date.now() + 30_000;
    while (!(await h.client.get(`/rag/${h.spaceId}/indexing_status`)).body.listo) {
      if (Date.now() > until) throw new Error('los documentos no terminaron de indexarse');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return h;
}

export const base = (h: TestHost) => `/mod/landing/${h.spaceId}/landings`;

/** Polls a landing until its last version leaves `generando`. */
export async function settled(h: TestHost, id: string, timeoutMs = 20_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await h.client.get(`${base(h)}/${id}`);
    assert.equal(res.status, 200, res.text);
    if (res.body.estado !== 'generando') return res.body;
    if (Date.now() > until) throw new Error(`la landing sigue generándose: ${res.text}`);
    await new Promise((r) => setTimeout(r, 60));
  }
}

export async function balance(h: TestHost): Promise<number> {
  return (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.saldo;
}

/** Creates a landing and waits for its first version to settle. */
export async function createLanding(h: TestHost, body: Record<string, unknown>): Promise<any> {
  const res = await h.client.post(base(h), { json: body });
  assert.equal(res.status, 202, res.text);
  assert.equal(res.body.versiones[0].estado, 'generando');
  return settled(h, res.body.id);
}

export const SHOES = {
  objetivo: 'Vender más zapatillas en temporada de carreras',
  tema: 'zapatillas de running',
  productos: ['zap-trail', 'zap-ruta'],
  publico: 'corredores que entrenan varias veces por semana',
  cta: { texto: 'Comprar ahora', url: 'https://tienda.example/zapatillas' },
};
