import assert from 'node:assert/strict';
import type { TestAdmin, TestClient } from '@cerebro/sdk/testing';
import { filesForm, waitIndexed } from './rag.js';

/** One owner's space with something of every kind stored in it, and the ids a hostile caller would try. */
export interface SeededSpace {
  space: string;
  document: { id: string; nombre: string };
  product: string;
  ragConversation: string;
  salesConversation: string;
  /** A source and a finished ficha of module fuentes (when the space has it; else empty strings). */
  fuente: string;
  ficha: string;
  /** A landing page (ready) built from the space's catalog. */
  landing: string;
  /** A webhook (paused after its first delivery attempt, so nothing changes later on its own) and that delivery. */
  webhook: string;
  entrega: string;
  /** A member of the space (an invitation accepted) and an invitation still pending. */
  miembro: string;
  invitacion: string;
  /** A word written into every stored item, to spot this tenant's data in someone else's response. */
  marker: string;
}

/** The modules a seeded space needs enabled; the rest of the installed plugins are added by the caller. */
export const SEEDED_MODULES = ['api', 'marca', 'ventas', 'landing'];

/**
 * Stores a document, a product, a question and a sales conversation in `space`, each carrying `marker` in its
 * content. Names and ids are derived from the space, not the marker: an error may rightly echo an id it was sent.
 */
export async function seedSpace(client: TestClient, space: string, marker: string): Promise<SeededSpace> {
  // A public name that does not resolve: the document's event is stored and its one attempt fails at once.
  const hook = await client.post(`/companies/${space}/webhooks`, {
    json: {
      url: `https://receptor-${space}.invalid/hook`,
      eventos: ['documento.listo'],
      descripcion: `Webhook ${marker}`,
    },
  });
  assert.equal(hook.status, 201, hook.text);
  const upload = await client.post(`/rag/${space}/load_documents`, {
    body: filesForm({
      [`informe-${space}.md`]: `# Informe\n\nEl código secreto de la caja fuerte es ${marker}. Se guarda en la oficina.\n`,
    }),
  });
  assert.equal(upload.status, 202, upload.text);
  await waitIndexed(client, space);
  const product = `prod-${space}`;
  const put = await client.put(`/mod/ventas/${space}/productos/${product}`, {
    json: {
      nombre: `Lámpara ${marker}`,
      descripcion: `Producto de ${marker}`,
      precio: 1000,
      moneda: 'COP',
      stock: 5,
      envio: { Bogotá: 100 },
    },
  });
  assert.equal(put.status, 201, put.text);
  const asked = await client.post(`/rag/${space}/conversations`, {
    json: { pregunta: '¿Cuál es el código secreto de la caja fuerte?' },
  });
  assert.equal(asked.status, 200, asked.text);
  const sold = await client.post(`/mod/ventas/${space}/conversaciones`, {
    json: {
      mensaje: `Hola, quiero la lámpara ${marker}`,
      contacto: { nombre: `Cliente ${marker}`, email: `${marker}@example.com` },
    },
  });
  assert.equal(sold.status, 200, sold.text);
  const landing = await client.post(`/mod/landing/${space}/landings`, {
    json: {
      objetivo: `Vender la lámpara ${marker}`,
      productos: [product],
      cta: { texto: 'Comprar', url: 'https://tienda.example/lampara' },
    },
  });
  assert.equal(landing.status, 202, landing.text);
  for (
    let i = 0;
    (await client.get(`/mod/landing/${space}/landings/${landing.body.id}`)).body.estado !== 'lista';
    i++
  ) {
    assert.ok(i < 200, 'the seeded landing did not become ready');
    await new Promise((r) => setTimeout(r, 50));
  }
  const doc = upload.body.documentos[0] as { id: string; nombre: string };
  const { fuente, ficha } = await seedFuentes(client, space, marker);
  const entrega = await seedDelivery(client, space, hook.body.id);
  const { miembro, invitacion } = await seedMembers(client, space, marker);
  return {
    space,
    document: { id: doc.id, nombre: doc.nombre },
    product,
    ragConversation: asked.body.conversacion,
    salesConversation: sold.body.conversacion,
    fuente,
    ficha,
    landing: landing.body.id,
    webhook: hook.body.id,
    entrega,
    miembro,
    invitacion,
    marker,
  };
}

/** The webhook's delivery of the seeded document, once its first attempt is recorded; then the webhook is paused. */
async function seedDelivery(client: TestClient, space: string, webhook: string): Promise<string> {
  const url = `/companies/${space}/webhooks/${webhook}`;
  for (let i = 0; ; i++) {
    const [first] = (await client.get(`${url}/entregas`)).body.entregas;
    if (first?.intentos >= 1) {
      assert.equal((await client.patch(url, { json: { activo: false } })).status, 200);
      return first.id as string;
    }
    assert.ok(i < 400, 'the seeded delivery was never attempted');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A source (never launched: no network) and a ficha waited until it ends, so nothing changes later on its own. */
async function seedFuentes(
  client: TestClient,
  space: string,
  marker: string,
): Promise<{ fuente: string; ficha: string }> {
  const source = await client.post(`/mod/fuentes/${space}/fuentes`, {
    json: { tipo: 'url', url: 'https://ejemplo.com/', nombre: `Fuente ${marker}` },
  });
  if (source.status === 403) return { fuente: '', ficha: '' };
  assert.equal(source.status, 201, source.text);
  const ficha = await client.post(`/mod/fuentes/${space}/fichas`, {
    json: { tema: `Caja fuerte ${marker}`, campos: ['código secreto'] },
  });
  assert.equal(ficha.status, 202, ficha.text);
  for (let i = 0; i < 400; i++) {
    const state = (await client.get(`/mod/fuentes/${space}/fichas/${ficha.body.id}`)).body.estado;
    if (!['en_cola', 'generando'].includes(state)) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  return { fuente: source.body.id, ficha: ficha.body.id };
}

/** An owner with a space of every installed module, a console session and a write key. */
export interface Tenant {
  ownerId: string;
  accountId: string;
  session: string;
  writeKey: { id: string; token: string };
}

export async function createTenant(
  admin: TestAdmin,
  name: string,
  space: string,
  modules: string[],
  credits = 1_000_000,
): Promise<Tenant> {
  const owner = await admin.createOwner({ name, credits });
  await admin.createSpace({ id: space, ownerId: owner.id, modules });
  return {
    ownerId: owner.id,
    accountId: owner.cuenta,
    session: (await admin.issueConsoleSession(owner.id)).token,
    writeKey: await admin.issueKey(owner.id, `${name}-escribe`, [], 'escribe'),
  };
}

/** A member of `space` (invited as `consulta`, the invitation accepted) and a second invitation left pending. */
async function seedMembers(
  client: TestClient,
  space: string,
  marker: string,
): Promise<{ miembro: string; invitacion: string }> {
  const invite = async (who: string) => {
    const res = await client.post(`/companies/${space}/miembros`, {
      json: { email: `${who}.${space}@ejemplo.test`, rol: 'consulta' },
    });
    assert.equal(res.status, 201, res.text);
    return res.body as { id: string; enlace: string };
  };
  const joining = await invite('miembro');
  const accepted = await client.post('/invitaciones/aceptar', {
    key: null,
    json: {
      token: new URL(joining.enlace).searchParams.get('token'),
      nombre: `Miembro ${marker}`,
      clave: 'una clave larga de prueba',
    },
  });
  assert.equal(accepted.status, 201, accepted.text);
  const listed = await client.get(`/companies/${space}/miembros`);
  assert.equal(listed.status, 200, listed.text);
  return { miembro: (listed.body.miembros as { id: string }[])[0]!.id, invitacion: (await invite('invitado')).id };
}
