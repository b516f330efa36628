#!/usr/bin/env node
// Many hosts (issue #25 item 6): requests per second and latency of the embedded single process against 3 `api`
// hosts (+ 2 workers) on PostgreSQL + Redis behind haproxy, in the same run, alternating twice. The route is a space
// route with a per-minute limit (GET /api/rag/demo/documents, limit 10^9): every request is authenticated, counted
// against the space's limit (in memory for the single process, in Redis for the hosts) and reads the database.
// The embedded process is also measured behind haproxy, to tell the balancer's cost from the backends'. On a 2-core
// machine the load generator, haproxy and every host share the two cores: the figures say what a host costs, not
// what 3 machines would serve. Needs haproxy (Debian package) and the PostgreSQL and Redis of the machine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFromProcess } from './support/load-from-process.mjs';

const support = (name) => import(new URL(`../test/dist/support/${name}.js`, import.meta.url).href);
const { freePort, haproxyUnavailable, startHaproxy } = await support('haproxy');
const { startServer } = await support('server-process');
const { postgresState, postgresUnavailable, sqliteState } = await support('shared-state');

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PATH = '/api/rag/demo/documents';
const ENV = { CEREBRO_DISCOVER_PLUGINS: 'false', CEREBRO_KEEPALIVE_MS: '75000' }; // behind haproxy, as the README says

const missing = haproxyUnavailable() ?? (await postgresUnavailable());
if (missing) {
  console.log(`multihost: no medido: ${missing}`);
  process.exit(0);
}

const load = (urls, headers, seconds) => loadFromProcess(urls, headers, seconds, CONNECTIONS);

/** The demo key of a first start, with the space's per-minute limit raised out of the way. */
async function demoKey(state, url) {
  const key = /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(
    readFileSync(join(state.dataDir, 'primer-arranque.txt'), 'utf8'),
  )[0];
  const patched = await fetch(`${url}/api/companies/demo/api-config`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ limite_por_minuto: 1_000_000_000 }),
  });
  if (patched.status !== 200) throw new Error(`api-config: ${patched.status}`);
  return key;
}

const cleanups = [];
try {
  // The embedded default: one `todo` process on SQLite, called directly and through haproxy.
  const single = await sqliteState();
  cleanups.push(() => single.close());
  const port = await freePort();
  const embedded = await startServer(single.dataDir, { ...ENV, CEREBRO_PORT: String(port) });
  cleanups.push(() => embedded.stop());
  const embeddedKey = await demoKey(single, embedded.url);
  const embeddedBalanced = await startHaproxy([port]);
  cleanups.push(() => embeddedBalanced.stop());

  // 3 api hosts and 2 workers on PostgreSQL + Redis, behind haproxy.
  const shared = await postgresState();
  cleanups.push(() => shared.close());
  const env = { ...ENV, ...shared.env };
  const ports = [await freePort(), await freePort(), await freePort()];
  const first = await startServer(
    shared.dataDir,
    { ...env, CEREBRO_PORT: String(ports[0]) },
    { args: ['--rol', 'api'] },
  );
  const hosts = [
    first,
    ...(await Promise.all([
      startServer(shared.dataDir, { ...env, CEREBRO_PORT: String(ports[1]) }, { args: ['--rol', 'api'] }),
      startServer(shared.dataDir, { ...env, CEREBRO_PORT: String(ports[2]) }, { args: ['--rol', 'api'] }),
      startServer(shared.dataDir, env, { args: ['--rol', 'worker'] }),
      startServer(shared.dataDir, env, { args: ['--rol', 'worker'] }),
    ])),
  ];
  cleanups.push(() => Promise.all(hosts.map((h) => h.stop())));
  const sharedKey = await demoKey(shared, first.url);
  const balanced = await startHaproxy(ports);
  cleanups.push(() => balanced.stop());

  const setups = {
    '1 proceso todo, SQLite (embebido)': [embedded.url, embeddedKey],
    '1 proceso todo, SQLite, tras haproxy': [embeddedBalanced.url, embeddedKey],
    '3 api + 2 worker, PostgreSQL + Redis, haproxy': [balanced.url, sharedKey],
  };
  const rows = [];
  for (let round = 0; round < 2; round++) {
    for (const [name, [url, key]] of Object.entries(setups)) {
      const headers = { authorization: `Bearer ${key}` };
      await load([`${url}${PATH}`], headers, 2); // warm-up: JIT, connections, caches
      const r = await load([`${url}${PATH}`], headers, SECONDS);
      const bad = r.non2xx + r.errors + r.timeouts;
      if (bad > 0) throw new Error(`${name}: ${bad} peticiones fallidas`);
      rows.push({ name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 });
    }
  }
  console.log(
    `multihost: GET ${PATH} autenticado y limitado, ${CONNECTIONS} conexiones, ${SECONDS} s por medida, 2 rondas alternas`,
  );
  for (const r of rows)
    console.log(
      `  ${r.name.padEnd(48)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms`,
    );
  const mean = (name) => rows.filter((r) => r.name === name).reduce((s, r) => s + r.rps, 0) / 2;
  const names = Object.keys(setups);
  console.log(
    `  3 hosts / 1 proceso: ${((mean(names[2]) / mean(names[0])) * 100).toFixed(0)} %   haproxy / directo: ${((mean(names[1]) / mean(names[0])) * 100).toFixed(0)} % (medias de las dos rondas)`,
  );
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
}
