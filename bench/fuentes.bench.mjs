#!/usr/bin/env node
// `npm run bench -- fuentes`: pages per second crawled from a loopback site and peak memory, module fuentes vs a
// plain fetch loop over the same pages, in the same run. Each side runs in its own process (peak RSS is the
// process's own); the site is served from this process. Sides alternate, three rounds each; medians are reported.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestSite } from '@cerebro/plugin-fuentes/testing';

const PAGES = Number(process.env.BENCH_FUENTES_PAGES ?? 400);
const ROUNDS = Number(process.env.BENCH_FUENTES_ROUNDS ?? 3);
const SIDE = fileURLToPath(new URL('support/fuentes-crawl.mjs', import.meta.url));

function side(mode, sitemap) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SIDE, mode, sitemap], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, CEREBRO_LOG_LEVEL: 'silent' } });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop())) : reject(new Error(`${mode} exited ${code}: ${out}`))));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const site = await startTestSite({ generatedPages: PAGES });
const sitemap = `${site.url}/gen/sitemap.xml`;
const results = { module: [], fetch: [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 ? ['module', 'fetch'] : ['fetch', 'module']) results[mode].push(await side(mode, sitemap));
  }
} finally {
  await site.close();
}
const row = (label, rs) => `${label.padEnd(34)} ${median(rs.map((r) => r.pagesPerSecond)).toFixed(1).padStart(8)} págs/s   pico RSS ${median(rs.map((r) => r.peakMb)).toFixed(0).padStart(4)} MB`;
console.log(`${PAGES} páginas de ~1,5 kB desde un sitio en loopback, ${ROUNDS} rondas (medianas):`);
console.log(row('bucle fetch sin más (referencia)', results.fetch));
console.log(row('módulo fuentes (ejecución)', results.module));
console.log(`  módulo fuentes: estado ${results.module.map((r) => r.estado).join('/')}, nuevas ${results.module.map((r) => r.nuevas).join('/')}, hasta indexado ${median(results.module.map((r) => r.indexedSeconds)).toFixed(1)} s`);
