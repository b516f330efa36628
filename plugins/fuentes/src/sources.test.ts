// Sources and runs over real HTTP: a crawl of the loopback site, conditional re-runs, removal, cancel and delete.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentsOf, startLab, waitForIndexing, waitForRun } from './test-support.js';

test('a site crawl reads robots.txt and the sitemap, follows links in scope and records each failure per URL', async (t) => {
  const lab = await startLab(t);
  const created = await lab.h.client.post(`${lab.base}/fuentes`, { json: { tipo: 'sitio', url: `${lab.site.url}/`, profundidad: 1 } });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.ultima_ejecucion, null);
  const launched = await lab.h.client.post(`${lab.base}/fuentes/${created.body.id}/lanzar`);
  assert.equal(launched.status, 202, launched.text);
  const source = await waitForRun(lab, created.body.id);
  const run = source.ultima_ejecucion;
  assert.equal(run.estado, 'completada', JSON.stringify(run));
  const byCode = (code: string) => run.errores.filter((e: any) => e.codigo === code).map((e: any) => new URL(e.url).pathname).sort();
  assert.deepEqual(byCode('robots'), ['/privado/secreto.html']);
  assert.deepEqual(byCode('direccion_bloqueada'), ['/salir'], 'the redirect to 127.0.0.1 is refused: only the name localhost is allowed');
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
