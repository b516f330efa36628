#!/usr/bin/env node
// `npm run bench -- fuentes`: how fast and how lightly module fuentes crawls, against a plain fetch loop in the same
// run. Each side runs in its own process (peak RSS is the process's own); the sites are served from this process.
//  1. Loopback: a sitemap of BENCH_FUENTES_PAGES pages (~1.5 kB each); fetch loop and module alternate, ROUNDS each.
//     Targets: module ≥ 50 % of the loop's pages/s; its peak RSS growth ≤ 1.5× the loop's.
//  2. A site adding 100 ms to every answer: one host. Target ≥ 80 % of concurrencia_por_host ÷ latency.
//  3. Four such sites (four ports: four hosts) crawled at once by four sources. Target: near 4× one host.
// Beside row 1, for information (no target): each side crawling a second loopback site of as many pages in the same
// process, after its first crawl (and the module's indexing) ended: a long-running server's steady state, with its
// code compiled and its threads started, against the loop's own second pass.
// Medians of ROUNDS are reported, with the CPU time per page of the side's whole process (every thread; the
// module's includes the indexing that goes on during the crawl), which a loaded machine inflates far less.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestSite } from '@cerebro/plugin-fuentes/testing';

const PAGES = Number(process.env.BENCH_FUENTES_PAGES ?? 400);
const SLOW_PAGES = Number(process.env.BENCH_FUENTES_SLOW_PAGES ?? 160);
const ROUNDS = Number(process.env.BENCH_FUENTES_ROUNDS ?? 3);
const LATENCY_MS = 100;
/** The module's default concurrencia_por_host (the sides run with the defaults). */
const PER_HOST = 4;
const SIDE = fileURLToPath(new URL('support/fuentes-crawl.mjs', import.meta.url));

function side(mode, sitemaps, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SIDE, mode, sitemaps.join(',')], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, CEREBRO_LOG_LEVEL: 'silent', ...env },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').pop()))
        : reject(new Error(`${mode} exited ${code}: ${out}`)),
    );
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pps = (rs) => median(rs.map((r) => r.pagesPerSecond));
const fmt = (x, digits = 1) => x.toFixed(digits).padStart(8);
const row = (label, rs) =>
  `${label.padEnd(36)} ${fmt(pps(rs))} págs/s  CPU ${fmt(median(rs.map((r) => r.cpuMsPerPage)), 2)} ms/pág  pico RSS ${fmt(median(rs.map((r) => r.peakMb)), 0)} MB  crecimiento ${fmt(median(rs.map((r) => r.growthMb)), 0)} MB`;
const verdict = (ok) => (ok ? 'cumple' : 'NO cumple');
const states = (rs) => rs.map((r) => r.estados.join('+')).join(' / ');

const local = await startTestSite({ generatedPages: PAGES });
const local2 = await startTestSite({ generatedPages: PAGES });
const slow = await Promise.all(
  Array.from({ length: 4 }, () => startTestSite({ generatedPages: SLOW_PAGES, latencyMs: LATENCY_MS })),
);
const sitemapOf = (site) => `${site.url}/gen/sitemap.xml`;
const results = { fetch: [], module: [], oneHost: [], fourHosts: [], fetchAgain: [], moduleAgain: [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 ? ['module', 'fetch'] : ['fetch', 'module']) {
      results[mode].push(await side(mode, [sitemapOf(local)], { BENCH_WAIT_INDEXING: '1' }));
    }
    for (const mode of round % 2 ? ['module', 'fetch'] : ['fetch', 'module']) {
      const again = await side(mode, [sitemapOf(local)], { BENCH_WAIT_INDEXING: '1', BENCH_SECOND: sitemapOf(local2) });
      results[`${mode}Again`].push(again);
    }
    // Each round on fresh pages of the slow sites: nothing answered 304 from an earlier round (separate hosts anyway).
    results.oneHost.push(await side('module', [sitemapOf(slow[round % 4])]));
    results.fourHosts.push(await side('module', slow.map(sitemapOf)));
  }
} finally {
  await Promise.all([local, local2, ...slow].map((s) => s.close()));
}

const loop = pps(results.fetch);
const mod = pps(results.module);
const growthRatio = median(results.module.map((r) => r.growthMb)) / median(results.fetch.map((r) => r.growthMb));
const bound = PER_HOST / (LATENCY_MS / 1000);
console.log(`1. ${PAGES} páginas de ~1,5 kB desde un sitio en loopback, ${ROUNDS} rondas (medianas):`);
console.log(row('bucle fetch sin más (referencia)', results.fetch));
console.log(row('módulo fuentes (una ejecución)', results.module));
console.log(
  `   módulo/bucle: ${((100 * mod) / loop).toFixed(0)} % de las págs/s (objetivo ≥ 50 %: ${verdict(mod >= loop / 2)}); crecimiento de RSS ${growthRatio.toFixed(2)}× el del bucle (objetivo ≤ 1,5×: ${verdict(growthRatio <= 1.5)})`,
);
console.log(
  `   estados ${states(results.module)}, nuevas ${results.module.map((r) => r.nuevas).join('/')}, hasta indexado ${median(results.module.map((r) => r.indexedSeconds)).toFixed(1)} s`,
);
const loopAgain = pps(results.fetchAgain);
const modAgain = pps(results.moduleAgain);
console.log(
  '   Informativo (sin objetivo): segundo rastreo en el mismo proceso, otro sitio de tantas páginas (régimen de un servidor en marcha):',
);
console.log(row('bucle fetch, segunda pasada', results.fetchAgain));
console.log(row('módulo fuentes, segundo rastreo', results.moduleAgain));
console.log(
  `   módulo/bucle en la segunda pasada: ${((100 * modAgain) / loopAgain).toFixed(0)} % de las págs/s; estados ${states(results.moduleAgain)}, nuevas ${results.moduleAgain.map((r) => r.nuevas).join('/')}`,
);
console.log(
  `2. ${SLOW_PAGES} páginas con ${LATENCY_MS} ms de latencia cada una, un host (concurrencia_por_host ${PER_HOST}: tope ${bound} págs/s):`,
);
console.log(row('módulo fuentes, un host', results.oneHost));
console.log(
  `   ${((100 * pps(results.oneHost)) / bound).toFixed(0)} % del tope (objetivo ≥ 80 %: ${verdict(pps(results.oneHost) >= 0.8 * bound)}); estados ${states(results.oneHost)}`,
);
console.log(`3. Cuatro sitios así a la vez (cuatro fuentes, ${4 * SLOW_PAGES} páginas):`);
console.log(row('módulo fuentes, cuatro hosts', results.fourHosts));
console.log(
  `   ${(pps(results.fourHosts) / pps(results.oneHost)).toFixed(2)}× un host (objetivo: cerca de 4×); estados ${states(results.fourHosts)}`,
);
