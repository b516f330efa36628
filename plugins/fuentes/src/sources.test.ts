// Sources and runs over real HTTP: a crawl of the loopback site, conditional re-runs, removal, cancel and delete.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentsOf, startLab, waitForIndexing, waitForRun } from './test-support.js';

test('a site crawl reads robots.txt and the sitemap, follows links in scope and records each failure per URL', async (t) => {
  const lab = await startLab(t);
  const created = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'sitio', url: `${lab.site.url}/`, profundidad: 1 },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.ultima_ejecucion, null);
  const launched = await lab.h.client.post(`${lab.base}/fuentes/${created.body.id}/lanzar`);
  assert.equal(launched.status, 202, launched.text);
  const source = await waitForRun(lab, created.body.id);
  const run = source.ultima_ejecucion;
  assert.equal(run.estado, 'completada', JSON.stringify(run));
  const byCode = (code: string) =>
    run.errores
      .filter((e: any) => e.codigo === code)
      .map((e: any) => new URL(e.url).pathname)
      .sort();
  assert.deepEqual(byCode('robots'), ['/privado/secreto.html']);
  assert.deepEqual(
    byCode('direccion_bloqueada'),
    ['/salir'],
    'the redirect to 127.0.0.1 is refused: only the name localhost is allowed',
  );
  assert.deepEqual(byCode('demasiado_grande'), ['/docs/enorme.html']);
  assert.deepEqual(byCode('tiempo_agotado'), ['/docs/lento.html']);
  assert.deepEqual(byCode('tipo_no_admitido'), ['/docs/imagen.png']);
  assert.deepEqual(byCode('http'), ['/docs/falta.html']);
  assert.equal(lab.site.hits('/privado/secreto.html'), 0, 'robots.txt is honoured: never requested');
  assert.equal(run.contadores.rechazadas_robots, 1);
  assert.equal(run.contadores.rechazadas_guardia, 1);
  // /, precios, soporte, viejo→nuevo, blog/1 (from the sitemap)
  assert.equal(run.contadores.nuevas, 5, JSON.stringify(run.contadores));
  assert.ok(run.bytes > 0 && run.inicio && run.fin);

  const docs = await documentsOf(lab);
  const port = lab.site.port;
  const precios = docs.get(`localhost:${port} › docs › precios.html`);
  assert.ok(precios, [...docs.keys()].join('\n'));
  assert.equal(precios.origen.modulo, 'fuentes');
  assert.equal(precios.origen.fuente, created.body.id);
  assert.equal(precios.origen.url, `${lab.site.url}/docs/precios.html`);
  assert.match(precios.origen.etag, /^"[0-9a-f]{16}"$/);
  assert.match(precios.origen.ultima_modificacion, /GMT$/);
  assert.match(precios.origen.hash, /^[0-9a-f]{64}$/);
  const moved = docs.get(`localhost:${port} › docs › viejo`);
  assert.equal(moved?.origen.url, `${lab.site.url}/docs/nuevo.html`, 'the origin keeps the address after redirects');
  assert.equal(source.documentos, 5);
  await waitForIndexing(lab);
});

test('a page written without <body> (a fragment of a manual) is read and indexed, and its text is found', async (t) => {
  const lab = await startLab(t);
  // As the DocBook parts of a manual are served: no <html>, <head> or <body>. One has no text: no document, no failure.
  lab.site.setPage(
    '/manual/',
    `<section><h2>Manual</h2><p>Guía de las aplicaciones del servidor doméstico, una por página.</p>
<ul><li><a href="calibre.html">Calibre</a></li><li><a href="vacia.html">Vacía</a></li></ul></section>`,
  );
  lab.site.setPage(
    '/manual/calibre.html',
    `<section><h2>Calibre</h2><p>Calibre administra libros electrónicos: los organiza en bibliotecas y los convierte entre formatos.</p>
<section><h3>Acceso</h3><p>El lector web de Calibre abre los libros desde cualquier navegador de la red local.</p></section></section>`,
  );
  lab.site.setPage('/manual/vacia.html', '<script src="vacia.js"></script>');
  const created = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'sitio', url: `${lab.site.url}/manual/`, prefijo: '/manual/', profundidad: 1, lanzar: true },
  });
  assert.equal(created.status, 201, created.text);
  const run = (await waitForRun(lab, created.body.id)).ultima_ejecucion;
  assert.deepEqual([run.estado, run.errores, run.contadores.nuevas], ['completada', [], 2], JSON.stringify(run));
  await waitForIndexing(lab);
  const name = `localhost:${lab.site.port} › manual › calibre.html`;
  assert.equal((await documentsOf(lab)).get(name)?.estado, 'listo');
  const found = await lab.h.client.post(`/rag/${lab.h.spaceId}/buscar`, {
    json: { pregunta: '¿Cómo abro los libros desde el navegador?' },
  });
  const passage = found.body.pasajes.find((p: { documento: string; texto: string }) => p.documento === name);
  assert.match(passage?.texto ?? '', /lector web de Calibre/, JSON.stringify(found.body));
});

test('a re-run asks conditionally, re-indexes only what changed and removes the pages that disappeared', async (t) => {
  const lab = await startLab(t);
  const list = ['/docs/precios.html', '/docs/soporte.html', '/docs/nuevo.html'].map((p) => `${lab.site.url}${p}`);
  const created = await lab.h.client.post(`${lab.base}/fuentes`, { json: { tipo: 'lista', urls: list, lanzar: true } });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.ultima_ejecucion.origen, 'creacion');
  const first = (await waitForRun(lab, created.body.id)).ultima_ejecucion;
  assert.deepEqual([first.estado, first.contadores.nuevas], ['completada', 3]);
  await waitForIndexing(lab);
  const before = await documentsOf(lab);
  const name = (path: string) => `localhost:${lab.site.port} › ${path.split('/').filter(Boolean).join(' › ')}`;

  lab.site.setPage(
    '/docs/soporte.html',
    '<html><body><main><p>El soporte atiende ahora también los sábados de 10 a 14 horas, además del horario de diario.</p></main></body></html>',
  );
  lab.site.removePage('/docs/nuevo.html');
  const notModifiedBefore = lab.site.notModified();
  assert.equal((await lab.h.client.post(`${lab.base}/fuentes/${created.body.id}/lanzar`)).status, 202);
  const second = (await waitForRun(lab, created.body.id)).ultima_ejecucion;
  assert.equal(second.estado, 'completada');
  assert.deepEqual(
    [
      second.contadores.sin_cambios,
      second.contadores.cambiadas,
      second.contadores.nuevas,
      second.contadores.eliminadas,
    ],
    [1, 1, 0, 1],
    JSON.stringify(second.contadores),
  );
  assert.equal(
    lab.site.notModified() - notModifiedBefore,
    1,
    'the unchanged page answered 304 to a conditional request',
  );
  await waitForIndexing(lab);
  const after = await documentsOf(lab);
  assert.equal(
    after.get(name('/docs/precios.html')).version,
    before.get(name('/docs/precios.html')).version,
    'unchanged: not re-indexed',
  );
  assert.equal(
    after.get(name('/docs/soporte.html')).version,
    before.get(name('/docs/soporte.html')).version + 1,
    'changed: replaced',
  );
  assert.equal(after.has(name('/docs/nuevo.html')), false, 'a page answering 404 takes its document with it');
});

test('one run per source (409), cancel stops within about a second keeping what was read, delete keeps documents on request', async (t) => {
  // One page at a time, so that the page before the slow one has surely been read when the cancel comes (cancel with
  // many pages in flight: crawl-concurrency.test.ts).
  const lab = await startLab(t, {
    env: { CEREBRO_FUENTES_MAX_SEGUNDOS_PETICION: '30', CEREBRO_FUENTES_CONCURRENCIA_POR_EJECUCION: '1' },
    site: { slowMs: 20_000 },
  });
  const urls = ['/docs/precios.html', '/docs/lento.html', '/docs/soporte.html'].map((p) => `${lab.site.url}${p}`);
  const created = await lab.h.client.post(`${lab.base}/fuentes`, { json: { tipo: 'lista', urls, lanzar: true } });
  const id = created.body.id;
  const again = await lab.h.client.post(`${lab.base}/fuentes/${id}/lanzar`);
  assert.equal(again.status, 409, again.text);
  assert.equal(again.body.codigo, 'conflict');
  // Wait until the slow page is being fetched.
  for (let i = 0; i < 200 && lab.site.hits('/docs/lento.html') === 0; i++) await new Promise((r) => setTimeout(r, 25));
  const metrics = await lab.h.client.get('/metrics', {
    key: (await lab.h.admin.issueOperatorCredential('metricas')).token,
  });
  assert.match(
    metrics.text,
    /^cerebro_plugin_fuentes_ejecuciones_en_curso 1$/m,
    'the running run shows in the metrics',
  );
  const started = Date.now();
  const cancelled = await lab.h.client.post(`${lab.base}/fuentes/${id}/cancelar`);
  assert.equal(cancelled.status, 200, cancelled.text);
  // The slow page would answer after 20 s: the cancel aborts the request instead of waiting (the bound leaves room
  // for a loaded test machine; the request is aborted at once).
  assert.ok(Date.now() - started < 3000, `cancel took ${Date.now() - started} ms`);
  assert.equal(cancelled.body.estado, 'cancelada');
  assert.equal(cancelled.body.contadores.nuevas, 1, 'what was read before the cancel is kept');
  assert.equal(lab.site.hits('/docs/soporte.html'), 0);
  assert.equal((await lab.h.client.post(`${lab.base}/fuentes/${id}/cancelar`)).status, 409, 'nothing left to cancel');

  const kept = await lab.h.client.delete(`${lab.base}/fuentes/${id}?conservar_documentos=true`);
  assert.deepEqual(kept.body, { eliminada: id, documentos_eliminados: 0, documentos_conservados: 1 });
  assert.equal((await lab.h.client.get(`${lab.base}/fuentes/${id}`)).status, 404);
  assert.equal((await documentsOf(lab)).size, 1, 'the document stays');

  const other = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'url', url: `${lab.site.url}/docs/soporte.html`, lanzar: true },
  });
  await waitForRun(lab, other.body.id);
  const removed = await lab.h.client.delete(`${lab.base}/fuentes/${other.body.id}`);
  assert.deepEqual(removed.body, { eliminada: other.body.id, documentos_eliminados: 1, documentos_conservados: 0 });
  assert.deepEqual([...(await documentsOf(lab)).keys()], [`localhost:${lab.site.port} › docs › precios.html`]);
});

test('sitemap and feed sources read their entries; a bad body names every problem (422)', async (t) => {
  const lab = await startLab(t);
  const sitemap = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'sitemap', url: `${lab.site.url}/sitemap.xml`, lanzar: true },
  });
  const feed = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'feed', url: `${lab.site.url}/feed.xml`, lanzar: true, cada_horas: 6 },
  });
  assert.ok(feed.body.proxima_ejecucion, 'a schedule shows the next launch');
  const s = (await waitForRun(lab, sitemap.body.id)).ultima_ejecucion;
  const f = (await waitForRun(lab, feed.body.id)).ultima_ejecucion;
  assert.deepEqual([s.estado, s.contadores.encontradas, s.contadores.nuevas], ['completada', 3, 3], JSON.stringify(s));
  assert.deepEqual([f.estado, f.contadores.encontradas, f.contadores.nuevas], ['completada', 2, 2], JSON.stringify(f));
  const notFeed = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'feed', url: `${lab.site.url}/docs/precios.html`, lanzar: true },
  });
  const nf = (await waitForRun(lab, notFeed.body.id)).ultima_ejecucion;
  assert.equal(nf.estado, 'fallida');
  assert.match(nf.motivo, /no es un feed/i);

  const list = await lab.h.client.get(`${lab.base}/fuentes?limite=2`);
  assert.deepEqual([list.body.total, list.body.fuentes.length, list.body.limite, list.body.desde], [3, 2, 2, 0]);

  const bad = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: {
      tipo: 'lista',
      url: 'ftp://ejemplo.com/x',
      urls: ['no es una dirección', 'file:///etc/passwd'],
      profundidad: 1,
    },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.deepEqual(bad.body.detail.map((d: any) => d.loc.join('.')).sort(), [
    'body.profundidad',
    'body.url',
    'body.urls.0',
    'body.urls.1',
  ]);
  const missing = await lab.h.client.post(`${lab.base}/fuentes`, { json: { tipo: 'sitio' } });
  assert.deepEqual(
    missing.body.detail.map((d: any) => d.loc.join('.')),
    ['body.url'],
  );
  const unknown = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'url', url: 'https://ejemplo.com/', color: 'rojo' },
  });
  assert.equal(unknown.status, 422);
  const readOnly = await lab.h.client.post(`${lab.base}/fuentes`, {
    key: lab.h.readKey,
    json: { tipo: 'url', url: 'https://ejemplo.com/' },
  });
  assert.equal(readOnly.status, 403);
});

test('max_paginas caps what a run reads and says so; a capped run removes nothing it did not see', async (t) => {
  const lab = await startLab(t);
  const created = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'sitemap', url: `${lab.site.url}/sitemap.xml`, lanzar: true },
  });
  const full = (await waitForRun(lab, created.body.id)).ultima_ejecucion;
  assert.equal(full.contadores.nuevas, 3);
  const capped = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'sitemap', url: `${lab.site.url}/sitemap.xml`, max_paginas: 2, lanzar: true },
  });
  const run = (await waitForRun(lab, capped.body.id)).ultima_ejecucion;
  assert.deepEqual(
    [run.estado, run.contadores.encontradas, run.contadores.leidas],
    ['completada', 2, 2],
    JSON.stringify(run),
  );
  assert.match(run.motivo, /máximo de 2 páginas/);
  assert.equal(run.contadores.eliminadas, 0);
});

test('a document deleted by hand comes back on the next run (fetched whole, not answered 304)', async (t) => {
  const lab = await startLab(t);
  const created = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'url', url: `${lab.site.url}/docs/soporte.html`, lanzar: true },
  });
  await waitForRun(lab, created.body.id);
  await waitForIndexing(lab);
  const name = `localhost:${lab.site.port} › docs › soporte.html`;
  assert.equal((await lab.h.client.delete(`/rag/${lab.h.spaceId}/documents/${encodeURIComponent(name)}`)).status, 200);
  await lab.h.client.post(`${lab.base}/fuentes/${created.body.id}/lanzar`);
  const run = (await waitForRun(lab, created.body.id)).ultima_ejecucion;
  assert.equal(run.contadores.sin_cambios, 0, JSON.stringify(run.contadores));
  assert.ok((await documentsOf(lab)).has(name));
});
