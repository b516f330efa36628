#!/usr/bin/env node
// Studio's access path and sign-in, each beside a same-run baseline:
//  1. GET /api/companies authenticated three ways against one server (load from autocannon in another process,
//     50 connections, bounded in time): a service key (the baseline, the path bench/auth measures), a console
//     session as Bearer, and the same session as the `cerebro_sesion` cookie (cookie parsing, session row and
//     owner read, idle expiry check, CSRF token derived). Target: the cookie keeps >= 70 % of the key's req/s.
//  2. Sign-in's scrypt check, in-process, interleaved rounds: right password, wrong password, and no stored
//     password (unknown email). Target: the three within 10 % of each other (no user enumeration by timing).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { load as loadFrom } from './support/autocannon.mjs';

const SERVER = fileURLToPath(new URL('support/studio-server.mjs', import.meta.url));
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

const load = (url, headers, seconds) => loadFrom(url, headers, seconds, CONNECTIONS);

const child = spawn(process.execPath, [SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
const server = await new Promise((resolve, reject) => {
  createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
  child.once('exit', (code) => reject(new Error(`studio-server exited with ${code}`)));
});
const url = `http://127.0.0.1:${server.port}/api/companies`;
const ways = [
  ['clave de servicio (Bearer crb_)', { authorization: `Bearer ${server.key}` }],
  ['sesión de consola (Bearer crs_)', { authorization: `Bearer ${server.session}` }],
  ['sesión de consola (cookie)', { cookie: `cerebro_sesion=${server.session}` }],
];
// Interleaved rounds (key, Bearer session, cookie, key, ...), the median round of each way reported: on a shared
// machine a burst of other work then hits every way alike instead of whichever ran during it.
const ROUND_SECONDS = Math.max(1, Math.round(SECONDS / 4));
const runs = ways.map(() => []);
try {
  for (const [, headers] of ways) await load(url, headers, 2); // warm-up each path
  for (let round = 0; round < 4; round++) {
    for (const [i, [name, headers]] of ways.entries()) {
      const r = await load(url, headers, ROUND_SECONDS);
      const bad = r.non2xx + r.errors + r.timeouts;
      if (bad > 0) throw new Error(`${name}: ${bad} failed requests`);
      runs[i].push({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 });
    }
  }
} finally {
  child.kill('SIGTERM');
}
const median = (list, key) => [...list].map((r) => r[key]).sort((a, b) => a - b)[list.length >> 1];
const results = ways.map(([name], i) => ({
  name,
  rps: median(runs[i], 'rps'),
  p50: median(runs[i], 'p50'),
  p99: median(runs[i], 'p99'),
}));
console.log(
  `studio: GET /api/companies, ${CONNECTIONS} conexiones, 4 rondas intercaladas de ${ROUND_SECONDS} s por forma de autenticarse (mediana)`,
);
for (const r of results)
  console.log(
    `  ${r.name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms`,
  );
const ratio = results[2].rps / results[0].rps;
console.log(
  `  cookie / clave: ${(ratio * 100).toFixed(1)} % (objetivo >= 70 %)  ${ratio >= 0.7 ? 'CUMPLIDO' : 'NO CUMPLIDO'}`,
);

const { hashPassword, passwordMatches } = await import('../host/dist/studio/password-digest.js');
const stored = await hashPassword('la clave correcta de la dueña');
const cases = {
  'clave correcta': () => passwordMatches('la clave correcta de la dueña', stored),
  'clave equivocada': () => passwordMatches('otra clave cualquiera', stored),
  'email desconocido (sin clave)': () => passwordMatches('otra clave cualquiera', null),
};
await cases['email desconocido (sin clave)'](); // the decoy digest is made once, on first use
const ROUNDS = 25;
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of Object.entries(cases)) {
    const t0 = process.hrtime.bigint();
    await run();
    samples[name].push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
}
console.log(`comprobación de la contraseña (scrypt N=2^15 r=8 p=1; mediana de ${ROUNDS} rondas intercaladas):`);
const medians = Object.entries(samples).map(([name, list]) => {
  list.sort((a, b) => a - b);
  return [name, list[ROUNDS >> 1]];
});
for (const [name, ms] of medians) console.log(`  ${name.padEnd(30)} ${ms.toFixed(1).padStart(7)} ms`);
const values = medians.map(([, ms]) => ms);
const spread = (Math.max(...values) - Math.min(...values)) / Math.min(...values);
console.log(
  `  diferencia máxima entre casos: ${(spread * 100).toFixed(1)} % (objetivo <= 10 %)  ${spread <= 0.1 ? 'CUMPLIDO' : 'NO CUMPLIDO'}`,
);
