#!/usr/bin/env node
// One side of `npm run bench -- fuentes`, in its own process so its memory is its own:
//   fetch <sitemap-url>          a plain loop: fetch each page of the sitemap one after another and read its body;
//   module <sitemap-url>[,<…>]   a Cerebro host with module fuentes runs one sitemap source per address, all launched
//                                at once (fetch, guard, robots, Readability, documents through the Cerebro's
//                                indexing) until every run ends; with BENCH_WAIT_INDEXING=1 it then waits for the
//                                indexing too.
// With BENCH_SECOND=<sitemap-url>, each side then does the same a second time in the same process, over that sitemap
// (another site: every page new again), after the first crawl and its indexing ended, and reports that second crawl
// only: the steady state of a long-running server, its code already compiled and its threads already started.
// Prints one JSON line: pages, seconds, pages per second, peak RSS and its growth over the RSS just before the
// crawl (MB), and for the module the runs' states and the time until indexed.
import { startTestHost } from '@cerebro/sdk/testing';
import fuentes from '@cerebro/plugin-fuentes';

const [mode, sitemaps] = process.argv.slice(2);
const mb = (bytes) => bytes / 1024 / 1024;
const peakMb = () => process.resourceUsage().maxRSS / 1024;
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
/** CPU time of the whole process (every thread) since `from`, in ms. */
const cpuMs = (from) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1000;
};

if (mode === 'fetch') {
  const loop = async (sitemap) => {
    const xml = await (await fetch(sitemap)).text();
    const urls = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    const baseMb = mb(process.memoryUsage.rss());
    const cpu = process.cpuUsage();
    const started = performance.now();
    let bytes = 0;
    for (const url of urls) bytes += (await (await fetch(url)).arrayBuffer()).byteLength;
    const seconds = (performance.now() - started) / 1000;
    return {
      mode,
      pages: urls.length,
      bytes,
      seconds,
      pagesPerSecond: urls.length / seconds,
      cpuMsPerPage: cpuMs(cpu) / urls.length,
      peakMb: peakMb(),
      growthMb: peakMb() - baseMb,
    };
  };
  const first = await loop(sitemaps);
  console.log(JSON.stringify(process.env.BENCH_SECOND ? await loop(process.env.BENCH_SECOND) : first));
} else {
  const h = await startTestHost(undefined, {
    plugins: [fuentes],
    env: {
      CEREBRO_FUENTES_PERMITIDOS: 'localhost',
      CEREBRO_FUENTES_PAUSA_MS: '0',
      CEREBRO_FUENTES_MAX_PAGINAS: '100000',
      CEREBRO_FUENTES_EJECUCIONES_SIMULTANEAS: '4',
    },
  });
  const base = `/mod/fuentes/${h.spaceId}`;
  // Warm-up, as the loop's own first fetch (the sitemap) loads its HTTP client: 16 addresses of one page of the
  // site, read several at once, bring up every reading thread and the indexing thread, so the growth measured is
  // the crawl's, not the machinery's start (its fixed cost shows in the peak RSS).
  const origin = new URL(sitemaps.split(',')[0]).origin;
  const warm = Array.from({ length: 16 }, (_, i) => `${origin}/docs/precios.html?calentamiento=${i}`);
  const warmed = await h.client.post(`${base}/fuentes`, { json: { tipo: 'lista', urls: warm, lanzar: true } });
  if (warmed.status !== 201) throw new Error(`warm-up answered ${warmed.status}: ${warmed.text}`);
  while (
    ['en_cola', 'ejecutando'].includes(
      (await h.client.get(`${base}/fuentes/${warmed.body.id}`)).body.ultima_ejecucion.estado,
    )
  )
    await pause(100);
  await h.waitForIndexing();
  const crawl = async (list) => {
    const baseMb = mb(process.memoryUsage.rss());
    const cpu = process.cpuUsage();
    const started = performance.now();
    const ids = new Set();
    for (const url of list.split(',')) {
      const created = await h.client.post(`${base}/fuentes`, {
        json: { tipo: 'sitemap', url, max_paginas: 100000, lanzar: true },
      });
      if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.text}`);
      ids.add(created.body.id);
    }
    // Polled gently: the space's per-minute request limit counts these calls too.
    let runs;
    for (;;) {
      await pause(250);
      const listed = await h.client.get(`${base}/fuentes?limite=200`);
      if (listed.status !== 200) throw new Error(`list answered ${listed.status}: ${listed.text}`);
      runs = listed.body.fuentes.filter((f) => ids.has(f.id)).map((f) => f.ultima_ejecucion);
      if (runs.every((run) => !['en_cola', 'ejecutando'].includes(run.estado))) break;
    }
    // From the first run's start to the last one's end, as the runs recorded them.
    const seconds =
      (Math.max(...runs.map((r) => Date.parse(r.fin))) - Math.min(...runs.map((r) => Date.parse(r.inicio)))) / 1000;
    const pages = runs.reduce((n, r) => n + r.contadores.leidas, 0);
    // Until the runs ended (polling included): the indexing that goes on after them is not the crawl's.
    const cpuMsPerPage = cpuMs(cpu) / pages;
    let indexedSeconds = null;
    if (process.env.BENCH_WAIT_INDEXING === '1') {
      while (!(await h.client.get(`/rag/${h.spaceId}/indexing_status`)).body.listo) await pause(250);
      indexedSeconds = (performance.now() - started) / 1000;
    }
    return {
      mode,
      estados: runs.map((r) => r.estado),
      motivos: runs.map((r) => r.motivo).filter(Boolean),
      pages,
      nuevas: runs.reduce((n, r) => n + r.contadores.nuevas, 0),
      bytes: runs.reduce((n, r) => n + r.bytes, 0),
      seconds,
      pagesPerSecond: pages / seconds,
      cpuMsPerPage,
      indexedSeconds,
      peakMb: peakMb(),
      growthMb: peakMb() - baseMb,
    };
  };
  const first = await crawl(sitemaps);
  console.log(JSON.stringify(process.env.BENCH_SECOND ? await crawl(process.env.BENCH_SECOND) : first));
  await h.close();
}
