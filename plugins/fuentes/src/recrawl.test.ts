// Re-runs of a site crawl: pages that answer 304 still lead to the pages they link to, so nothing that is still on
// the site is taken for gone; a page really unlinked still is; and a site that fails (start page or robots.txt down)
// keeps every document.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentsOf, type Lab, startLab, waitForRun } from './test-support.js';

const page = (text: string, links: string[] = []) =>
  `<!doctype html><html><head><title>${text}</title></head><body><nav>${links
    .map((l) => `<a href="${l}">${l}</a>`)
    .join(
      ' ',
    )}</nav><main><p>${text}: texto de la página con detalles suficientes para leerla como documento.</p></main></body></html>`;

/** Launches the source, waits for the run and returns it with the /kit/ requests it made, by path. */
async function rerun(lab: Lab, id: string): Promise<{ run: any; requests: Map<string, number> }> {
  const before = lab.site.requests('/kit/').length;
  assert.equal((await lab.h.client.post(`${lab.base}/fuentes/${id}/lanzar`)).status, 202);
  const run = (await waitForRun(lab, id)).ultima_ejecucion;
  const requests = new Map<string, number>();
  for (const r of lab.site.requests('/kit/').slice(before)) requests.set(r.path, (requests.get(r.path) ?? 0) + 1);
  return { run, requests };
}

const counts = (run: any) => {
  const c = run.contadores;
  return { nuevas: c.nuevas, cambiadas: c.cambiadas, sin_cambios: c.sin_cambios, eliminadas: c.eliminadas };
};

test('a re-crawl follows the links of pages answering 304: nothing still on the site is removed, changes are re-indexed', async (t) => {
  const lab = await startLab(t);
  // /kit/ links a and b; c is reached only through a, two hops from the start.
  lab.site.setPage('/kit/', page('Inicio del kit', ['/kit/a.html', '/kit/b.html']));
  lab.site.setPage('/kit/a.html', page('Envíos', ['/kit/c.html']));
  lab.site.setPage('/kit/b.html', page('Precios'));
  lab.site.setPage('/kit/c.html', page('Devoluciones'));
  const created = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'sitio', url: `${lab.site.url}/kit/`, prefijo: '/kit/', profundidad: 3, pausa_ms: 0, lanzar: true },
  });
  assert.equal(created.status, 201, created.text);
  const id = created.body.id;
  const first = (await waitForRun(lab, id)).ultima_ejecucion;
  assert.equal(first.estado, 'completada', JSON.stringify(first));
  assert.deepEqual(counts(first), { nuevas: 4, cambiadas: 0, sin_cambios: 0, eliminadas: 0 });
  const names = async () => [...(await documentsOf(lab)).keys()].sort();
  const all = await names();
  assert.equal(all.length, 4, all.join('\n'));

  // Nothing changed: every page answers 304, and the pages behind them are still reached (each once).
  for (const round of [2, 3]) {
    const notModified = lab.site.notModified();
    const { run, requests } = await rerun(lab, id);
    assert.equal(run.estado, 'completada', JSON.stringify(run));
    assert.deepEqual(counts(run), { nuevas: 0, cambiadas: 0, sin_cambios: 4, eliminadas: 0 }, `run ${round}`);
    assert.equal(lab.site.notModified() - notModified, 4, `run ${round}: every page answered 304`);
    assert.deepEqual(
      [...requests].sort(),
      [
        ['/kit/', 1],
        ['/kit/a.html', 1],
        ['/kit/b.html', 1],
        ['/kit/c.html', 1],
      ],
      `run ${round}: every page fetched once`,
    );
    assert.deepEqual(await names(), all, `run ${round}: no document removed`);
  }

  // b changes; a no longer links c (c still answers, but the crawl no longer comes across it).
  lab.site.setPage('/kit/b.html', page('Precios nuevos de este año'));
  lab.site.setPage('/kit/a.html', page('Envíos sin devoluciones'));
  const changed = await rerun(lab, id);
  assert.deepEqual(counts(changed.run), { nuevas: 0, cambiadas: 2, sin_cambios: 1, eliminadas: 1 });
  assert.equal(changed.requests.get('/kit/c.html'), undefined, 'c is no longer linked');
  assert.deepEqual(
    await names(),
    all.filter((n) => !n.endsWith('c.html')),
  );
});

test('a re-crawl of a site that fails (start page 5xx, robots.txt unreachable) removes no document', async (t) => {
  const lab = await startLab(t);
  lab.site.setPage('/kit/', page('Inicio del kit', ['/kit/a.html']));
  lab.site.setPage('/kit/a.html', page('Envíos', ['/kit/b.html']));
  lab.site.setPage('/kit/b.html', page('Precios'));
  const created = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'sitio', url: `${lab.site.url}/kit/`, prefijo: '/kit/', profundidad: 3, pausa_ms: 0, lanzar: true },
  });
  const id = created.body.id;
  assert.deepEqual(counts((await waitForRun(lab, id)).ultima_ejecucion), {
    nuevas: 3,
    cambiadas: 0,
    sin_cambios: 0,
    eliminadas: 0,
  });
  const all = [...(await documentsOf(lab)).keys()].sort();

  // The start page answers 503: the pages it linked last time are still visited through its kept links.
  lab.site.setStatus('/kit/', 503);
  const startDown = await rerun(lab, id);
  assert.equal(startDown.run.estado, 'completada', JSON.stringify(startDown.run));
  assert.equal(startDown.run.contadores.eliminadas, 0, JSON.stringify(startDown.run.contadores));
  assert.equal(startDown.run.contadores.sin_cambios, 2, JSON.stringify(startDown.run.contadores));
  assert.deepEqual([...(await documentsOf(lab)).keys()].sort(), all);

  // robots.txt unreachable: nothing is visited (RFC 9309), and nothing is taken for gone either.
  lab.site.setStatus('/kit/', null);
  lab.site.setStatus('/robots.txt', 503);
  const robotsDown = await rerun(lab, id);
  assert.equal(robotsDown.run.estado, 'completada', JSON.stringify(robotsDown.run));
  assert.equal(robotsDown.requests.size, 0, 'no page is requested while robots.txt cannot be read');
  assert.equal(robotsDown.run.contadores.eliminadas, 0, JSON.stringify(robotsDown.run.contadores));
  assert.deepEqual([...(await documentsOf(lab)).keys()].sort(), all);

  // Back up: all there, and a page really gone (404) still loses its document.
  lab.site.setStatus('/robots.txt', null);
  lab.site.removePage('/kit/b.html');
  const back = await rerun(lab, id);
  assert.deepEqual(counts(back.run), { nuevas: 0, cambiadas: 0, sin_cambios: 2, eliminadas: 1 });
  assert.deepEqual(
    [...(await documentsOf(lab)).keys()].sort(),
    all.filter((n) => !n.endsWith('b.html')),
  );
});
