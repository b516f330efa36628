#!/usr/bin/env node
// One side of `npm run bench -- fuentes`, in its own process so its peak memory is its own:
//   module <sitemap-url>  a Cerebro host with module fuentes crawls the sitemap's pages (fetch, guard, robots,
//                         Readability, documents through the Cerebro's indexing) until the run ends;
//   fetch <sitemap-url>   a plain loop: fetch each page of the same sitemap one after another and read its body.
// Prints one JSON line: pages, seconds, pages per second, peak RSS (MB), and for the module the indexing time.
import { startTestHost } from '@cerebro/sdk/testing';
import fuentes from '@cerebro/plugin-fuentes';

const [mode, sitemapUrl] = process.argv.slice(2);
const peakMb = () => process.resourceUsage().maxRSS / 1024;

if (mode === 'fetch') {
  const xml = await (await fetch(sitemapUrl)).text();
  const urls = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  const started = performance.now();
  let bytes = 0;
  for (const url of urls) bytes += (await (await fetch(url)).arrayBuffer()).byteLength;
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ mode, pages: urls.length, bytes, seconds, pagesPerSecond: urls.length / seconds, peakMb: peakMb() }));
} else {
  const h = await startTestHost(undefined, {
    plugins: [fuentes],
    env: { CEREBRO_FUENTES_PERMITIDOS: 'localhost', CEREBRO_FUENTES_PAUSA_MS: '0', CEREBRO_FUENTES_MAX_PAGINAS: '100000' },
  });
  const base = `/mod/fuentes/${h.spaceId}`;
  const created = await h.client.post(`${base}/fuentes`, { json: { tipo: 'sitemap', url: sitemapUrl, max_paginas: 100000, lanzar: true } });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.text}`);
  const started = performance.now();
  let run;
  for (;;) {
    run = (await h.client.get(`${base}/fuentes/${created.body.id}`)).body.ultima_ejecucion;
    if (!['en_cola', 'ejecutando'].includes(run.estado)) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const seconds = (Date.parse(run.fin) - Date.parse(run.inicio)) / 1000;
  for (;;) {
    if ((await h.client.get(`/rag/${h.spaceId}/indexing_status`)).body.listo) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const indexedSeconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({
    mode, estado: run.estado, pages: run.contadores.leidas, nuevas: run.contadores.nuevas, bytes: run.bytes, seconds,
    pagesPerSecond: run.contadores.leidas / seconds, indexedSeconds, peakMb: peakMb(),
  }));
  await h.close();
}
