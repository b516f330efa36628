// Publishing a landing over real HTTP: the public address answers without a key, is cacheable and counted, goes 404
// the moment it is unpublished, and its lead form reaches ventas (or stays here), refusing robots, big bodies and
// floods the way the catalogue says.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestHost } from '@cerebro/sdk/testing';
import { base, createLanding, SHOES, startShop } from './test-support.js';

const TOKEN_PATH = /^\/api\/pub\/landing\/pruebas\/p\/[A-Za-z0-9_-]{24}$/;

/** A visitor's request: no key, no cookie, redirects not followed. */
function visit(h: TestHost, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${h.url}${path}`, { redirect: 'manual', ...init });
}

function sendForm(h: TestHost, path: string, fields: Record<string, string>): Promise<Response> {
  return visit(h, `${path}/contacto`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

async function publish(h: TestHost, id: string, body: Record<string, unknown> = {}) {
  return h.client.post(`${base(h)}/${id}/publicacion`, { json: body });
}

const LEAD = {
  nombre: 'Ana Pérez',
  contacto: 'ana@example.com',
  mensaje: '¿Tienen la talla 38?',
  consentimiento: 'si',
};

test('a published landing answers anyone without a key: cacheable, counted, button through a first-party redirect; unpublished it is 404 at once', async (t) => {
  const h = await startShop(t, { documents: false });
  const l = await createLanding(h, SHOES);
  assert.equal(l.publicacion, null);
  assert.deepEqual(l.estadisticas, { vistas: 0, clics: 0, contactos: 0 });

  // Nothing is public before publishing: an unknown token is the catalogue's 404.
  const unknown = await visit(h, `/api/pub/landing/${h.spaceId}/p/${'A'.repeat(24)}`);
  assert.equal(unknown.status, 404);
  assert.deepEqual(await unknown.json(), { detail: 'Página no encontrada.', codigo: 'not_found' });

  assert.equal((await h.client.post(`${base(h)}/${l.id}/publicacion`, { json: {}, key: h.readKey })).status, 403);
  assert.equal((await publish(h, l.id)).status, 201);
  const published = await publish(h, l.id);
  assert.equal(published.status, 200, 'publishing again keeps the publication');
  const pub = published.body.publicacion;
  assert.match(pub.ruta, TOKEN_PATH);
  assert.equal(pub.version, 1);
  assert.equal(pub.formulario, true);
  const token = pub.ruta.split('/').at(-1);
  assert.equal((await h.client.get(base(h))).body.landings[0].version_publicada, 1);

  const page = await visit(h, pub.ruta);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
  const csp = page.headers.get('content-security-policy') ?? '';
  assert.match(csp, /^default-src 'none';/);
  assert.match(csp, /form-action 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /sandbox allow-forms$/);
  assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(page.headers.get('cache-control'), 'public, no-cache');
  const etag = page.headers.get('etag') ?? '';
  assert.match(etag, /^"[A-Za-z0-9_-]{27}"$/);
  const html = await page.text();
  assert.match(html, new RegExp(`<form method="post" action="${token}/contacto"`));
  assert.match(html, new RegExp(`<a class="boton" href="${token}/cta">`));
  assert.doesNotMatch(html, /href="https:\/\/tienda\.example\/zapatillas"/, 'the button goes through the counter');
  assert.match(html, /name="sitio_web"[^>]*tabindex="-1"/);

  // Revalidated: 304 without the page, still a view. A key or cookie sent along changes nothing.
  const again = await visit(h, pub.ruta, { headers: { 'if-none-match': etag, authorization: `Bearer ${h.writeKey}` } });
  assert.equal(again.status, 304);
  assert.equal(again.headers.get('etag'), etag);
  const bogusKey = await visit(h, pub.ruta, { headers: { authorization: 'Bearer crb_0000000000000000.nada' } });
  assert.equal(bogusKey.status, 200);

  const click = await visit(h, `${pub.ruta}/cta`);
  assert.equal(click.status, 303);
  assert.equal(click.headers.get('location'), 'https://tienda.example/zapatillas');
  assert.equal(click.headers.get('cache-control'), 'no-store');

  // Nothing else of the API opens without a key, from the page's origin or any other.
  assert.equal((await visit(h, `/api/mod/landing/${h.spaceId}/landings`)).status, 401);
  assert.equal((await visit(h, `/api/mod/landing/${h.spaceId}/landings/${l.id}/contactos`)).status, 401);
  assert.equal((await visit(h, `/api/pub/landing/otro-espacio/p/${token}`)).status, 404);

  const counted = await h.client.get(`${base(h)}/${l.id}`, { key: h.readKey });
  assert.deepEqual(counted.body.estadisticas, { vistas: 3, clics: 1, contactos: 0 });

  // Without the form: same address, no form, the sandbox no longer allows one, and its route is gone.
  const noForm = await publish(h, l.id, { formulario: false });
  assert.equal(noForm.status, 200);
  assert.equal(noForm.body.publicacion.ruta, pub.ruta);
  const plain = await visit(h, pub.ruta);
  assert.doesNotMatch(await plain.text(), /<form/);
  assert.match(plain.headers.get('content-security-policy') ?? '', /form-action 'none'.*sandbox$/);
  assert.notEqual(plain.headers.get('etag'), etag);
  assert.equal((await sendForm(h, pub.ruta, LEAD)).status, 404);

  // Unpublished: 404 at once, the same answer as an unknown page; the counts stay.
  const down = await h.client.delete(`${base(h)}/${l.id}/publicacion`);
  assert.equal(down.status, 200);
  assert.equal(down.body.publicacion, null);
  assert.equal(down.body.version_publicada, null);
  assert.equal(down.body.estadisticas.vistas, 4);
  const gone = await visit(h, pub.ruta);
  assert.equal(gone.status, 404);
  assert.deepEqual(await gone.json(), { detail: 'Página no encontrada.', codigo: 'not_found' });
  assert.equal((await visit(h, `${pub.ruta}/cta`)).status, 404);
  assert.equal((await h.client.delete(`${base(h)}/${l.id}/publicacion`)).status, 404);

  // Published again: a new address; the revoked one never comes back.
  const back = await publish(h, l.id);
  assert.equal(back.status, 201);
  assert.match(back.body.publicacion.ruta, TOKEN_PATH);
  assert.notEqual(back.body.publicacion.ruta, pub.ruta);
  assert.equal((await visit(h, pub.ruta)).status, 404);
  assert.equal((await visit(h, back.body.publicacion.ruta)).status, 200);

  // A space that loses the module stops serving its pages, with the same 404.
  await h.admin.disableModule(h.spaceId, 'landing');
  const moduleOff = await visit(h, back.body.publicacion.ruta);
  assert.equal(moduleOff.status, 404);
  assert.deepEqual(await moduleOff.json(), { detail: 'Página no encontrada.', codigo: 'not_found' });
});

test('a version that is not ready cannot be published; deleting the landing takes its page down', async (t) => {
  const h = await startShop(t, { documents: false });
  const l = await createLanding(h, SHOES);
  const missing = await publish(h, l.id, { version: 7 });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.codigo, 'not_found');
  assert.equal((await publish(h, 'lnd_0000000000000000')).status, 404);
  assert.equal((await publish(h, l.id, { formulario: 'si' })).status, 422);
  const pub = (await publish(h, l.id)).body.publicacion;
  assert.equal((await visit(h, pub.ruta)).status, 200);
  assert.equal((await h.client.delete(`${base(h)}/${l.id}`)).status, 204);
  assert.equal((await visit(h, pub.ruta)).status, 404);
});

test('the lead form: a lead reaches ventas as a handed-off conversation (or stays in landing without ventas); robots are thanked and dropped; big bodies 413; floods 429', async (t) => {
  const h = await startShop(t, { documents: false });
  const l = await createLanding(h, SHOES);
  const pub = (await publish(h, l.id)).body.publicacion;

  // 1. With ventas on the space: thanked with a page, filed in both places.
  const sent = await sendForm(h, pub.ruta, LEAD);
  assert.equal(sent.status, 200);
  assert.match(sent.headers.get('content-security-policy') ?? '', /form-action 'none'.*sandbox$/);
  const thanks = await sent.text();
  assert.match(thanks, /<h1>¡Gracias!<\/h1>/);
  // Titled after the page the visitor saw, never after the owner's internal brief.
  const seen = /<title>([^<]*)<\/title>/.exec(await (await visit(h, pub.ruta)).text())?.[1];
  assert.ok(seen);
  assert.equal(/<title>([^<]*)<\/title>/.exec(thanks)?.[1], `¡Gracias! · ${seen}`);
  assert.match(thanks, new RegExp(`href="\\.\\./${pub.ruta.split('/').at(-1)}"`));
  const leads = await h.client.get(`${base(h)}/${l.id}/contactos`, { key: h.readKey });
  assert.equal(leads.status, 200);
  assert.equal(leads.body.total, 1);
  const lead = leads.body.contactos[0];
  assert.deepEqual(
    [lead.nombre, lead.contacto, lead.mensaje, lead.version],
    ['Ana Pérez', 'ana@example.com', '¿Tienen la talla 38?', 1],
  );
  assert.match(lead.conversacion, /^conv_/);
  const conversation = await h.client.get(`/mod/ventas/${h.spaceId}/conversaciones/${lead.conversacion}`);
  assert.equal(conversation.status, 200, conversation.text);
  assert.equal(conversation.body.estado, 'derivada');
  assert.deepEqual(conversation.body.contacto, { nombre: 'Ana Pérez', email: 'ana@example.com' });
  assert.equal(
    conversation.body.mensajes[0].texto,
    'Contacto desde la landing «zapatillas de running»: ¿Tienen la talla 38?',
  );

  // 2. Without ventas: kept by the landing module only.
  await h.admin.disableModule(h.spaceId, 'ventas');
  assert.equal((await sendForm(h, pub.ruta, { ...LEAD, contacto: '+57 300 123 4567', mensaje: '' })).status, 200);
  const kept = (await h.client.get(`${base(h)}/${l.id}/contactos`)).body;
  assert.equal(kept.total, 2);
  const byPhone = kept.contactos.find((c: { contacto: string }) => c.contacto === '+57 300 123 4567');
  assert.deepEqual([byPhone?.mensaje, byPhone?.conversacion], ['', null]);

  // 3. The honeypot filled: the same thanks, nothing stored.
  const robot = await sendForm(h, pub.ruta, { ...LEAD, sitio_web: 'https://spam.example' });
  assert.equal(robot.status, 200);
  assert.match(await robot.text(), /¡Gracias!/);
  // 4. No consent: nothing stored, the catalogue's 422.
  const { consentimiento: _, ...withoutConsent } = LEAD;
  const refused = await sendForm(h, pub.ruta, withoutConsent);
  assert.equal(refused.status, 422);
  assert.equal(((await refused.json()) as { codigo: string }).codigo, 'validation_failed');
  // 5. Too big: 413 before anything is read into memory.
  const big = await sendForm(h, pub.ruta, { ...LEAD, mensaje: 'x'.repeat(20_000) });
  assert.equal(big.status, 413);
  assert.deepEqual(await big.json(), {
    detail: 'El cuerpo supera el máximo de 16384 bytes.',
    codigo: 'body_too_large',
  });
  const stored = await h.client.get(`${base(h)}/${l.id}`);
  assert.equal(stored.body.estadisticas.contactos, 2);

  // 6. Five sends a minute from one address: the next is refused with the catalogue's 429 (a minute that turns
  // meanwhile only starts the count again, so within six more tries one is refused).
  let limited: Response | undefined;
  for (let i = 0; i < 6 && !limited; i++) {
    const res = await sendForm(h, pub.ruta, { ...LEAD, sitio_web: 'robot' });
    if (res.status === 429) limited = res;
    else assert.equal(res.status, 200);
  }
  assert.ok(limited, 'no 429 after the address passed its limit');
  const body = (await limited.json()) as { codigo: string; detail: string };
  assert.equal(body.codigo, 'rate_limited');
  assert.match(body.detail, /^Demasiadas peticiones desde tu dirección: esta página admite 5 por minuto\./);
  assert.ok(Number(limited.headers.get('retry-after')) >= 1);
  assert.match(limited.headers.get('ratelimit-policy') ?? '', /^5;w=60;limite="direccion"/);
  // The page itself has its own count: still served.
  assert.equal((await visit(h, pub.ruta)).status, 200);
});
