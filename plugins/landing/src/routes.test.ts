// The landing routes over real HTTP: states, questions, refinements, prices, brand, validation, credits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import {
  balance,
  BRAND,
  base,
  createLanding,
  landing,
  marca,
  settled,
  SHOES,
  startShop,
  ventas,
} from './test-support.js';

test('a landing from catalog and documents: lista, served with a strict CSP, facts with provenance, 2 credits', async (t) => {
  const h = await startShop(t);
  const before = await balance(h);
  const l = await createLanding(h, SHOES);
  assert.equal(l.estado, 'lista', JSON.stringify(l.versiones[0]));
  assert.equal(l.version_actual, 1);
  const v = l.versiones[0];
  assert.deepEqual(
    v.hechos.catalogo.map((p: any) => [p.id, p.precio, p.stock]),
    [
      ['zap-trail', 289900, 14],
      ['zap-ruta', 219900, 3],
    ],
  );
  assert.ok(v.hechos.documentos.length >= 3, JSON.stringify(v.hechos.documentos));
  for (const f of v.hechos.documentos) assert.equal(f.fuentes[0].documento, 'guia-zapatillas.md');
  assert.equal(await balance(h), before - 2);

  const html = await h.client.get(`${base(h)}/${l.id}/html`);
  assert.equal(html.status, 200);
  assert.match(html.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
  assert.match(html.headers.get('content-security-policy') ?? '', /default-src 'none'.*sandbox/);
  assert.equal(html.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(html.headers.get('content-disposition'), `inline; filename="${l.id}-v1.html"`);
  assert.match(html.text, /^<!DOCTYPE html>\n<html lang="es">/);
  assert.match(html.text, /289\.900 COP/);
  assert.match(html.text, /219\.900 COP/);
  assert.match(html.text, /Quedan 3 unidades/);
  assert.match(html.text, /href="https:\/\/tienda\.example\/zapatillas"/);
  assert.ok(Buffer.byteLength(html.text) < 60 * 1024);
  assert.equal((html.text.match(/<h1/g) ?? []).length, 1);
  // A common question is on the page only when the documents answer it (the guide says nothing about care).
  assert.match(
    html.text,
    /<summary>¿Qué garantía tiene\?<\/summary><p>La garantía de las zapatillas de running cubre defectos de fabricación durante seis meses/,
  );
  assert.doesNotMatch(html.text, /¿Cómo se cuida\?/);

  const list = await h.client.get(`${base(h)}?limite=10`, { key: h.readKey });
  assert.deepEqual(
    [list.status, list.body.total, list.body.landings[0].id, list.body.landings[0].version_actual],
    [200, 1, l.id, 1],
  );
});

test('faltan_datos → completar → lista: missing CTA URL, a product without price and one not in the catalog', async (t) => {
  const h = await startShop(t);
  const l = await createLanding(h, {
    objetivo: 'Vender el equipo completo',
    tema: 'equipo de running',
    productos: ['zap-trail', 'calcetin', 'gorra'],
    cta: { texto: 'Lo quiero' },
  });
  assert.equal(l.estado, 'faltan_datos');
  const preguntas = l.versiones[0].preguntas;
  assert.deepEqual(
    preguntas.map((q: any) => q.id),
    ['cta_url', 'precio:calcetin', 'producto:gorra'],
  );
  assert.deepEqual(preguntas[1].opciones, ['reintentar', 'sin_precio', 'omitir']);
  assert.equal((await h.client.get(`${base(h)}/${l.id}/html`)).status, 409);

  const bad = await h.client.post(`${base(h)}/${l.id}/completar`, {
    json: { respuestas: { cta_url: 'javascript:alert(1)', 'producto:gorra': 'tal vez', otra: 'x' } },
  });
  assert.equal(bad.status, 422);
  assert.deepEqual(
    bad.body.detail.map((d: any) => d.loc[2]),
    ['cta_url', 'producto:gorra', 'otra'],
  );

  // Partial answers: the remaining question is asked again.
  const partial = await h.client.post(`${base(h)}/${l.id}/completar`, {
    json: { respuestas: { cta_url: 'https://tienda.example/equipo', 'producto:gorra': 'omitir' } },
  });
  assert.equal(partial.status, 202);
  const again = await settled(h, l.id);
  assert.deepEqual(
    [again.estado, again.versiones[0].preguntas.map((q: any) => q.id)],
    ['faltan_datos', ['precio:calcetin']],
  );

  const done = await h.client.post(`${base(h)}/${l.id}/completar`, {
    json: { respuestas: { 'precio:calcetin': 'sin_precio' } },
  });
  assert.equal(done.status, 202);
  const ready = await settled(h, l.id);
  assert.equal(ready.estado, 'lista', JSON.stringify(ready.versiones[0]));
  assert.equal(ready.versiones.length, 1, 'completar continues the same version');
  const html = (await h.client.get(`${base(h)}/${l.id}/html`)).text;
  assert.match(html, /Calcetines técnicos/);
  assert.match(html, /Precio a consultar/);
  assert.doesNotMatch(html, /gorra/i);
  assert.equal(
    (await h.client.post(`${base(h)}/${l.id}/completar`, { json: { respuestas: { cta_url: 'https://x.example' } } }))
      .status,
    409,
  );
});

test('refinar twice makes versions 2 and 3 from the documented instructions; an unknown one is a 422 and costs nothing', async (t) => {
  const h = await startShop(t);
  const l = await createLanding(h, SHOES);
  const before = await balance(h);

  const unknown = await h.client.post(`${base(h)}/${l.id}/refinar`, {
    json: { instrucciones: 'hazla más moderna; tema: fucsia' },
  });
  assert.equal(unknown.status, 422);
  assert.equal(unknown.body.detail.length, 2);
  assert.equal(await balance(h), before, 'a refused refinement is never charged');

  assert.equal(
    (
      await h.client.post(`${base(h)}/${l.id}/refinar`, {
        json: { instrucciones: 'titular: Corre más lejos\ntema: oscuro\nquita preguntas frecuentes' },
      })
    ).status,
    202,
  );
  const v2 = await settled(h, l.id);
  assert.deepEqual(
    [v2.versiones.length, v2.version_actual, v2.versiones[1].estado, v2.versiones[1].origen],
    [2, 2, 'lista', 'refinar'],
  );
  assert.equal(v2.versiones[1].tema_color, 'oscuro');
  assert.ok(!v2.versiones[1].secciones.includes('preguntas_frecuentes'));
  const html2 = (await h.client.get(`${base(h)}/${l.id}/html`)).text;
  assert.match(html2, /<h1 id="t-inicio">Corre más lejos<\/h1>/);
  assert.doesNotMatch(html2, /Preguntas frecuentes/);

  assert.equal(
    (
      await h.client.post(`${base(h)}/${l.id}/refinar`, {
        json: { instrucciones: 'botón: Pide las tuyas; mueve precios al principio; más corta' },
      })
    ).status,
    202,
  );
  const v3 = await settled(h, l.id);
  assert.deepEqual(
    [v3.versiones.length, v3.version_actual, v3.versiones[2].longitud],
    [3, 3, 'corta'],
    JSON.stringify(v3.versiones[2]),
  );
  const html3 = (await h.client.get(`${base(h)}/${l.id}/html`)).text;
  assert.match(html3, /Pide las tuyas/);
  assert.match(html3, /<h1 id="t-inicio">Corre más lejos<\/h1>/, 'version 3 builds on version 2');
  assert.ok(
    html3.indexOf('id="inicio"') < html3.indexOf('id="precios"') &&
      html3.indexOf('id="precios"') < html3.indexOf('id="beneficios"'),
    'precios first after the portada',
  );
  // Every version is still there as it was.
  assert.match((await h.client.get(`${base(h)}/${l.id}/html?version=1`)).text, /Preguntas frecuentes/);
  assert.equal((await h.client.get(`${base(h)}/${l.id}/html?version=9`)).status, 404);
  assert.equal(await balance(h), before - 2);
});

test('a catalog price change does not alter an existing version: it is reported, and a refinement uses the new price', async (t) => {
  const h = await startShop(t);
  const l = await createLanding(h, SHOES);
  const put = await h.client.put(`/mod/ventas/${h.spaceId}/productos/zap-trail`, {
    json: {
      nombre: 'Zapatilla Trail Andes',
      descripcion: 'Zapatilla de trail con suela de agarre profundo y puntera reforzada.',
      precio: 309900,
      moneda: 'COP',
      stock: 14,
    },
  });
  assert.equal(put.status, 200);
  const html1 = (await h.client.get(`${base(h)}/${l.id}/html`)).text;
  assert.match(html1, /289\.900 COP/);
  assert.doesNotMatch(html1, /309\.900/);
  const state = (await h.client.get(`${base(h)}/${l.id}`)).body;
  assert.deepEqual(state.cambios_catalogo, [{ producto: 'zap-trail', campo: 'precio', antes: 289900, ahora: 309900 }]);
  assert.equal(state.versiones[0].hechos.catalogo[0].precio, 289900);

  assert.equal(
    (await h.client.post(`${base(h)}/${l.id}/refinar`, { json: { instrucciones: 'más larga' } })).status,
    202,
  );
  const v2 = await settled(h, l.id);
  assert.equal(v2.estado, 'lista');
  assert.deepEqual(v2.cambios_catalogo, []);
  const html2 = (await h.client.get(`${base(h)}/${l.id}/html`)).text;
  assert.match(html2, /309\.900 COP/);
  assert.doesNotMatch(html2, /289\.900/);
  assert.match((await h.client.get(`${base(h)}/${l.id}/html?version=1`)).text, /289\.900 COP/);
});

test('brand on: the brand name, its form of address and its emojis; brand off: a neutral page', async (t) => {
  const h = await startShop(t, { brand: true });
  const on = await createLanding(h, SHOES);
  assert.equal(on.estado, 'lista');
  assert.deepEqual(on.versiones[0].marca, { aplicada: true, nombre: 'Deportes Ruiz' });
  const htmlOn = (await h.client.get(`${base(h)}/${on.id}/html`)).text;
  assert.match(htmlOn, /<title>Zapatillas de running \| Deportes Ruiz<\/title>/);
  assert.match(htmlOn, /Cuéntenos qué necesita/, 'formal tone speaks as usted');
  assert.match(htmlOn, /🏃/);

  assert.equal((await h.client.patch(`/mod/marca/${h.spaceId}/config`, { json: { activo: false } })).status, 200);
  const off = await createLanding(h, SHOES);
  assert.deepEqual(off.versiones[0].marca, { aplicada: false, nombre: null });
  const htmlOff = (await h.client.get(`${base(h)}/${off.id}/html`)).text;
  assert.doesNotMatch(htmlOff, /Deportes Ruiz|🏃/);
  assert.match(htmlOff, /Cuéntanos qué necesitas/);
});

test('a brand whose name has digits ("Tienda 24 Horas", "3M", "Forever 21") gets its landing: the name is no figure', async (t) => {
  const h = await startShop(t);
  for (const name of ['Tienda 24 Horas', '3M', 'Forever 21']) {
    const set = await h.client.patch(`/mod/marca/${h.spaceId}/config`, { json: { ...BRAND, name } });
    assert.equal(set.status, 200, set.text);
    const l = await createLanding(h, SHOES);
    assert.equal(l.estado, 'lista', `${name}: ${JSON.stringify(l.versiones[0])}`);
    assert.deepEqual(l.versiones[0].marca, { aplicada: true, nombre: name });
    const html = (await h.client.get(`${base(h)}/${l.id}/html`)).text;
    assert.ok(html.includes(`<title>Zapatillas de running | ${name}</title>`), name);
  }
});

test('validar: a clean hand edit becomes a ready version; a hostile one is a 422 listing every problem', async (t) => {
  const h = await startShop(t);
  const l = await createLanding(h, SHOES);
  const html = (await h.client.get(`${base(h)}/${l.id}/html`)).text;
  const edited = html.replace('Comprar ahora</a>', 'Comprar hoy</a>');
  const ok = await h.client.post(`${base(h)}/${l.id}/validar`, { json: { html: edited } });
  assert.equal(ok.status, 201, ok.text);
  assert.deepEqual(
    [ok.body.version_actual, ok.body.versiones[1].origen, ok.body.versiones[1].redaccion],
    [2, 'validar', 'manual'],
  );
  assert.match((await h.client.get(`${base(h)}/${l.id}/html`)).text, /Comprar hoy/);

  const hostile = html
    .replace(
      '</head>',
      '<script>alert(1)</script><meta http-equiv="refresh" content="0;url=https://evil.example"><base href="https://evil.example/"></head>',
    )
    .replace(
      '<main>',
      '<main><h1>Otro</h1><img src="https://evil.example/x.png"><a href="javascript:alert(1)" onclick="x()">x</a><iframe src="https://evil.example"></iframe><p>Solo hoy 99.000 COP</p>',
    )
    .replace('lang="es"', '');
  const res = await h.client.post(`${base(h)}/${l.id}/validar`, { json: { html: hostile } });
  assert.equal(res.status, 422);
  const types = res.body.detail.map((d: any) => d.type);
  for (const type of [
    'etiqueta_no_permitida',
    'meta_no_permitida',
    'peticion_externa',
    'url_no_permitida',
    'manejador_de_eventos',
    'h1',
    'sin_idioma',
    'cifra_sin_respaldo',
    'imagen_sin_alt',
  ]) {
    assert.ok(types.includes(type), `${type} missing in ${JSON.stringify(res.body.detail)}`);
  }
  for (const d of res.body.detail) assert.deepEqual(d.loc, ['body', 'html']);
  const big = html.replace('</main>', `<p>${'relleno '.repeat(9000)}</p></main>`);
  const tooBig = await h.client.post(`${base(h)}/${l.id}/validar`, { json: { html: big } });
  assert.deepEqual([tooBig.status, tooBig.body.detail.map((d: any) => d.type)], [422, ['demasiado_grande']]);
  assert.equal((await h.client.get(`${base(h)}/${l.id}`)).body.versiones.length, 2, 'a refused edit stores nothing');
});

test('errors: 422 without tema or productos, 404 for another landing, 409 cancelling nothing, 403 for a read key, DELETE', async (t) => {
  const h = await startShop(t, { documents: false });
  const none = await h.client.post(base(h), { json: { objetivo: 'Vender' } });
  assert.deepEqual([none.status, none.body.detail[0].loc], [422, ['body', 'tema']]);
  const badUrl = await h.client.post(base(h), {
    json: { objetivo: 'Vender', tema: 'algo', cta: { url: 'data:text/html,hola' } },
  });
  assert.deepEqual([badUrl.status, badUrl.body.detail[0].loc], [422, ['body', 'cta', 'url']]);
  assert.equal((await h.client.get(`${base(h)}/lnd_0000000000000000`)).status, 404);
  const ro = await h.client.post(base(h), { key: h.readKey, json: SHOES });
  assert.deepEqual([ro.status, ro.body.codigo], [403, 'read_only']);
  const l = await createLanding(h, SHOES);
  assert.equal(l.estado, 'lista', 'a page without documents still has catalog and CTA');
  assert.ok(
    l.versiones[0].avisos.some((a: string) => /beneficios/.test(a)),
    JSON.stringify(l.versiones[0].avisos),
  );
  assert.equal((await h.client.post(`${base(h)}/${l.id}/cancelar`)).status, 409);
  assert.equal((await h.client.delete(`${base(h)}/${l.id}`)).status, 204);
  assert.equal((await h.client.get(`${base(h)}/${l.id}`)).status, 404);
  assert.equal((await h.client.delete(`${base(h)}/${l.id}`)).status, 404);
});

test('a request the route refuses anyway moves no credits, and on an empty pool it is still its own 4xx, not 402', async (t) => {
  const h = await startShop(t, { documents: false, credits: 2 });
  const movements = async () =>
    ((await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.movimientos as { motivo: string; delta: number }[]).map(
      (m) => `${m.motivo}${m.delta}`,
    );
  const script = { ...SHOES, cta: { texto: 'Comprar', url: 'javascript:alert(1)' } };
  const refusals = async () => {
    const badUrl = await h.client.post(base(h), { json: script });
    assert.deepEqual([badUrl.status, badUrl.body.detail[0].loc], [422, ['body', 'cta', 'url']]);
    const badContact = await h.client.post(base(h), { json: { ...SHOES, contacto: 'nadie' } });
    assert.deepEqual([badContact.status, badContact.body.detail[0].loc], [422, ['body', 'contacto']]);
    const none = await h.client.post(base(h), { json: { objetivo: 'Vender' } });
    assert.deepEqual([none.status, none.body.detail[0].loc], [422, ['body', 'tema']]);
    const unknown = await h.client.post(`${base(h)}/lnd_0000000000000000/refinar`, {
      json: { instrucciones: 'más corta' },
    });
    assert.deepEqual([unknown.status, unknown.body.codigo], [404, 'not_found']);
  };
  await refusals();
  assert.deepEqual(await movements(), ['recarga2'], 'no consumo nor reembolso for a refused request');

  const l = await createLanding(h, SHOES); // spends the whole pool
  assert.equal(await balance(h), 0);
  await refusals();
  const unclear = await h.client.post(`${base(h)}/${l.id}/refinar`, { json: { instrucciones: 'hazla más moderna' } });
  assert.equal(unclear.status, 422, unclear.text);
  const paid = await h.client.post(`${base(h)}/${l.id}/refinar`, { json: { instrucciones: 'más corta' } });
  assert.equal(paid.status, 402, 'a sound refinement still needs credits');
  assert.deepEqual(await movements(), ['consumo-2', 'recarga2']);
});

test('without the ventas module a landing with products fails with the reason, refunded; one without products is built', async (t) => {
  const h = await startTestHost(t, { plugins: [marca, ventas, landing], modules: ['api', 'landing'] });
  const before = await balance(h);
  const failed = await createLanding(h, SHOES);
  assert.equal(failed.estado, 'fallida');
  assert.match(failed.versiones[0].motivo, /catálogo del módulo ventas/);
  assert.equal(await balance(h), before);
  const themed = await createLanding(h, {
    objetivo: 'Captar corredores',
    tema: 'club de running',
    cta: { url: 'mailto:club@example.org' },
  });
  assert.equal(themed.estado, 'lista', JSON.stringify(themed.versiones[0]));
  assert.ok(!themed.versiones[0].secciones.includes('precios'));
});

test('POST /landings with the same Idempotency-Key creates one landing and charges once', async (t) => {
  const h = await startShop(t, { documents: false });
  const before = await balance(h);
  const headers = { 'idempotency-key': 'landing-zapatillas-1' };
  const first = await h.client.post(base(h), { json: SHOES, headers });
  const again = await h.client.post(base(h), { json: SHOES, headers });
  assert.deepEqual([first.status, again.status, again.body.id], [202, 202, first.body.id]);
  assert.equal((await h.client.get(base(h))).body.total, 1);
  assert.equal(await balance(h), before - 2);
});

test('refinar adding a contact section asks for the contact, and completar finishes that version', async (t) => {
  const h = await startShop(t, { documents: false });
  const l = await createLanding(h, SHOES);
  assert.ok(!l.versiones[0].secciones.includes('contacto'));
  assert.equal(
    (await h.client.post(`${base(h)}/${l.id}/refinar`, { json: { instrucciones: 'añade contacto' } })).status,
    202,
  );
  const asking = await settled(h, l.id);
  assert.deepEqual(
    [asking.estado, asking.version_actual, asking.versiones[1].preguntas.map((q: any) => q.id)],
    ['faltan_datos', 1, ['contacto']],
  );
  assert.equal(
    (await h.client.post(`${base(h)}/${l.id}/refinar`, { json: { instrucciones: 'más corta' } })).status,
    409,
    'one version in progress at a time',
  );
  const bad = await h.client.post(`${base(h)}/${l.id}/completar`, { json: { respuestas: { contacto: 'mañana' } } });
  assert.equal(bad.status, 422);
  assert.equal(
    (await h.client.post(`${base(h)}/${l.id}/completar`, { json: { respuestas: { contacto: 'hola@tienda.example' } } }))
      .status,
    202,
  );
  const ready = await settled(h, l.id);
  assert.deepEqual([ready.estado, ready.version_actual, ready.contacto], ['lista', 2, 'hola@tienda.example']);
  assert.match(
    (await h.client.get(`${base(h)}/${l.id}/html`)).text,
    /<a href="mailto:hola@tienda\.example">hola@tienda\.example<\/a>/,
  );
  const page = await h.client.get(`${base(h)}?limite=1&desde=1`);
  assert.deepEqual([page.body.total, page.body.landings.length], [1, 0]);
});
