// Module fuentes through the real server process: a loopback site crawled through the whole API, re-run after
// changes, address-guard attempts refused and recorded, a run cut by kill -9 resumed by the restarted process, and
// delete. The site is served on loopback and allowed by name (`localhost`) only.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { startTestSite, type TestSite } from '@cerebro/plugin-fuentes/testing';
import { startServer, type ServerProcess } from './support/server-process.js';
import { sqliteOnly } from './support/backend.js';

const SPACE = 'demo';
const BASE = `/mod/fuentes/${SPACE}`;

interface Api {
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

async function boot(
  t: { after(fn: () => unknown): void },
  env: Record<string, string>,
): Promise<{ api: Api; dataDir: string; server: () => ServerProcess; restart(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-fuentes-'));
  const fullEnv = { CEREBRO_PLUGINS_ALLOW: 'fuentes', CEREBRO_FUENTES_PAUSA_MS: '0', ...env };
  let server = await startServer(dataDir, fullEnv);
  t.after(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const key = /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(
    await readFile(join(dataDir, 'primer-arranque.txt'), 'utf8'),
  )![0];
  const api: Api = {
    async call(method, path, body) {
      const res = await fetch(`${server.url}/api${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    },
  };
  return {
    api,
    dataDir,
    server: () => server,
    restart: async () => {
      await server.crash();
      server = await startServer(dataDir, fullEnv);
    },
  };
}

async function finished(api: Api, id: string, ms = 30_000): Promise<any> {
  const until = Date.now() + ms;
  for (;;) {
    const res = await api.call('GET', `${BASE}/fuentes/${id}`);
    const run = res.body?.ultima_ejecucion;
    if (run && !['en_cola', 'ejecutando'].includes(run.estado)) return res.body;
    if (Date.now() > until) assert.fail(`run still open: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function create(api: Api, body: Record<string, unknown>): Promise<string> {
  const res = await api.call('POST', `${BASE}/fuentes`, body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

test(
  'crawl, documents with origin, re-run after changes, SSRF attempts recorded, kill -9 mid-run, delete',
  sqliteOnly('lee plugin_jobs en cerebro.db'),
  async (t) => {
    const site: TestSite = await startTestSite({ slowMs: 60_000 });
    t.after(() => site.close());
    const lab = await boot(t, { CEREBRO_FUENTES_PERMITIDOS: 'localhost', CEREBRO_FUENTES_MAX_SEGUNDOS_PETICION: '30' });
    const { api } = lab;

    // A site crawl: robots.txt, its sitemap, links at depth 0 (start page and sitemap pages only).
    const siteId = await create(api, { tipo: 'sitio', url: `${site.url}/`, profundidad: 0, nombre: 'Empresa Sol' });
    assert.equal((await api.call('POST', `${BASE}/fuentes/${siteId}/lanzar`)).status, 202);
    const crawled = await finished(api, siteId);
    assert.equal(crawled.ultima_ejecucion.estado, 'completada', JSON.stringify(crawled.ultima_ejecucion));
    assert.equal(crawled.ultima_ejecucion.contadores.nuevas, 4, JSON.stringify(crawled.ultima_ejecucion.contadores));
    const docs = await api.call('GET', `/rag/${SPACE}/documents?limite=200`);
    const web = docs.body.documentos.filter((d: any) => d.origen);
    assert.deepEqual(web.map((d: any) => new URL(d.origen.url).pathname).sort(), [
      '/',
      '/blog/1.html',
      '/docs/precios.html',
      '/docs/soporte.html',
    ]);
    for (const d of web) {
      assert.equal(d.origen.fuente, siteId);
      assert.equal(d.origen.modulo, 'fuentes');
      assert.ok(d.etiquetas.includes(`fuente:${siteId}`.toLowerCase()), 'tagged with its source');
      assert.ok(
        d.origen.etag &&
          d.origen.ultima_modificacion &&
          /^[0-9a-f]{64}$/.test(d.origen.hash) &&
          Date.parse(d.origen.obtenido) > 0,
      );
    }

    const tagged = await api.call(
      'GET',
      `/rag/${SPACE}/documents?limite=200&etiquetas=${encodeURIComponent(`fuente:${siteId}`)}`,
    );
    assert.equal(tagged.body.total, 4, 'the source tag lists its pages');

    // Re-run after a change: one page changed, the rest unchanged through 304.
    site.setPage(
      '/docs/precios.html',
      '<html><body><main><p>El plan Básico cuesta ahora 11 euros al mes e incluye soporte por correo y chat.</p></main></body></html>',
    );
    assert.equal((await api.call('POST', `${BASE}/fuentes/${siteId}/lanzar`)).status, 202);
    const rerun = (await finished(api, siteId)).ultima_ejecucion;
    assert.deepEqual(
      [rerun.contadores.cambiadas, rerun.contadores.sin_cambios, rerun.contadores.nuevas],
      [1, 3, 0],
      JSON.stringify(rerun.contadores),
    );

    // Address-guard attempts: every one refused and listed in the run's errors.
    const port = site.port;
    const attempts = [
      `${site.url}/salir`, // redirect to http://127.0.0.1:<port>/ (a literal address, not the allowed name)
      `${site.url}/metadatos`, // redirect to the cloud metadata address
      'http://169.254.169.254/latest/meta-data/',
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://2130706433:${port}/decimal`, // 127.0.0.1 written as one decimal number
      `http://0177.0.0.1:${port}/octal`, // 127.0.0.1 with an octal first part
    ];
    const guardId = await create(api, { tipo: 'lista', urls: attempts, lanzar: true });
    const guarded = (await finished(api, guardId)).ultima_ejecucion;
    assert.equal(guarded.contadores.rechazadas_guardia, attempts.length, JSON.stringify(guarded.errores));
    assert.equal(guarded.contadores.nuevas, 0);
    const refused = new Set(
      guarded.errores.filter((e: any) => e.codigo === 'direccion_bloqueada').map((e: any) => e.url),
    );
    assert.equal(refused.size, attempts.length, JSON.stringify(guarded.errores));
    assert.equal(site.hits('/docs/precios.html'), 2, 'the redirect target on 127.0.0.1 was never requested');

    // kill -9 while a run waits on the slow page: after the restart the cut run's job is taken back (its process is
    // gone) and the same run resumes, never left `ejecutando` by nobody and never launched twice.
    const slowId = await create(api, { tipo: 'lista', urls: [`${site.url}/docs/lento.html`], lanzar: true });
    for (let i = 0; i < 400 && site.hits('/docs/lento.html') === 0; i++) await new Promise((r) => setTimeout(r, 25));
    const cut = (await api.call('GET', `${BASE}/fuentes/${slowId}`)).body.ultima_ejecucion;
    assert.equal(cut.estado, 'ejecutando');
    const hitsBefore = site.hits('/docs/lento.html');
    await lab.restart();
    for (let i = 0; i < 400 && site.hits('/docs/lento.html') === hitsBefore; i++)
      await new Promise((r) => setTimeout(r, 25));
    assert.equal(site.hits('/docs/lento.html'), hitsBefore + 1, 'the resumed run asks for the page again');
    const resumed = (await api.call('GET', `${BASE}/fuentes/${slowId}`)).body.ultima_ejecucion;
    assert.deepEqual([resumed.id, resumed.estado, resumed.origen], [cut.id, 'ejecutando', 'creacion']);
    const db = new Database(join(lab.dataDir, 'cerebro.db'), { readonly: true });
    const job = db
      .prepare(
        "SELECT state, attempts, lease_owner FROM plugin_jobs WHERE plugin = 'fuentes' AND kind = 'ejecucion' AND payload LIKE ?",
      )
      .get(`%${cut.id}%`) as { state: string; attempts: number; lease_owner: string };
    db.close();
    assert.deepEqual([job.state, job.attempts], ['running', 2], 'claimed a second time');
    assert.ok(job.lease_owner.startsWith(`${lab.server().pid}-`), 'by the new process');
    assert.equal(
      (await api.call('POST', `${BASE}/fuentes/${slowId}/lanzar`)).status,
      409,
      'the resumed run is the one running',
    );
    const cancelled = await api.call('POST', `${BASE}/fuentes/${slowId}/cancelar`);
    assert.equal(cancelled.body.estado, 'cancelada');
    assert.equal((await api.call('POST', `${BASE}/fuentes/${slowId}/lanzar`)).status, 202);
    assert.equal((await api.call('POST', `${BASE}/fuentes/${slowId}/cancelar`)).body.estado, 'cancelada');

    // Delete: the source's documents go with it.
    const removed = await api.call('DELETE', `${BASE}/fuentes/${siteId}`);
    assert.deepEqual(removed.body, { eliminada: siteId, documentos_eliminados: 4, documentos_conservados: 0 });
    const left = await api.call('GET', `/rag/${SPACE}/documents?limite=200`);
    assert.equal(left.body.documentos.filter((d: any) => d.origen?.fuente === siteId).length, 0);
    const list = await api.call('GET', `${BASE}/fuentes`);
    assert.deepEqual(list.body.fuentes.map((f: any) => f.id).sort(), [guardId, slowId].sort());
  },
);

test('without the allow-list a host name resolving to a loopback address is refused and recorded', async (t) => {
  const site = await startTestSite();
  t.after(() => site.close());
  const { api } = await boot(t, {});
  const id = await create(api, { tipo: 'url', url: `${site.url}/docs/precios.html`, lanzar: true });
  const run = (await finished(api, id)).ultima_ejecucion;
  assert.equal(run.contadores.rechazadas_guardia, 1, JSON.stringify(run));
  assert.equal(run.errores[0].codigo, 'direccion_bloqueada');
  assert.match(run.errores[0].motivo, /localhost resuelve a (127\.0\.0\.1|::1)/);
  assert.equal(site.hits('/docs/precios.html') + site.hits('/robots.txt'), 0, 'nothing reached the site');
});
