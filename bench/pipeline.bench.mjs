#!/usr/bin/env node
// What the request pipeline costs in JavaScript, without sockets: the route handlers are called directly with
// minimal request/response objects, so Node's HTTP parser, the kernel's loopback and the load generator are out of
// the picture and the figures repeat within a few percent (the HTTP figures of auth.bench.mjs move by ±10 %).
// Cases, interleaved in 5 rounds, median CPU µs per request: a bare polka route logging one pino line (baseline),
// Cerebro's public GET /api/ready (pipeline shell + access line), and an authenticated GET /api/companies (Bearer
// parse, key lookup, secret compare, reach, counters), a space route the key is rate-limited on (the space's limit and
// quota counted), and GET /api/companies with Studio's session cookie instead of a key. Targets (issue #28): the key
// request <= 2.0x the baseline, the cookie request <= 3.0x.
// Then, when the machine's PostgreSQL answers, the same cases on a host using PostgreSQL + Redis (a scratch database,
// dropped after), beside the same baseline: there a request waits for its round trips, so each request that does
// not end within its call is awaited before the next (informative, no target: the round trips' cost is the network
// stack's and the driver's).
// Use it to see where a change moves the per-request cost.
import { bareApp } from './support/bare-route.mjs';
import { startBenchHost } from './support/bench-host.mjs';

const ROUNDS = 5;
const PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 100_000);
/** Requests per round on PostgreSQL, where each waits for its round trips. */
const PER_ROUND_REMOTE = Number(process.env.BENCH_REQUESTS_REMOTE ?? 5_000);
const support = (name) => import(new URL(`../test/dist/support/${name}.js`, import.meta.url).href);
const bare = bareApp();

/** The part of ServerResponse the pipeline and polka touch. */
class FakeResponse {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;
  finished = false;
  headers = {};
  setHeader(name, value) {
    this.headers[name] = value;
  }
  getHeader(name) {
    return this.headers[name];
  }
  writeHead(status, headers) {
    this.statusCode = status;
    this.headers = headers;
    this.headersSent = true;
    return this;
  }
  end(chunk) {
    this.body = chunk;
    this.writableEnded = true;
    this.finished = true;
    this.ended?.();
  }
  /** Resolves once the response is ended (at once if it already is). */
  done() {
    return this.writableEnded ? Promise.resolve() : new Promise((resolve) => (this.ended = resolve));
  }
  on() {
    return this;
  }
  once() {
    return this;
  }
}
const socket = { remoteAddress: '127.0.0.1', destroyed: false };
const requestFor = (url, headers) => () => ({
  method: 'GET',
  url,
  headers,
  socket,
  on() {
    return this;
  },
});

/** The cases measured on one host: the routes, their credentials and the space limits counted. */
async function casesOn(bench) {
  const { host, key } = bench;
  // A Studio console session, sent as its cookie: session row and owner read per request, idle expiry checked.
  const ownerId = (await host.admin.listOwners()).propietarios[0].id;
  const session = (await host.admin.issueConsoleSession(ownerId)).token;
  // A space route the key is limited on: the space's per-minute limit and daily quota, set high enough never to refuse,
  // are counted on every request (in memory in one process on SQLite; in Redis beside PostgreSQL).
  const writer = (await host.admin.issueKey(ownerId, 'bench-escribe', [], 'escribe')).token;
  const limited = await fetch(`${host.url}/api/companies/demo/api-config`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ limite_por_minuto: 1_000_000_000, cuota_diaria: 1_000_000_000 }),
  });
  if (limited.status !== 200) throw new Error(`api-config: ${limited.status}`);
  return {
    'polka + 1 línea de log': [bare.handler, requestFor('/api/companies', {})],
    'Cerebro GET /ready (público)': [host.handler, requestFor('/api/ready', {})],
    'Cerebro GET /companies autenticado': [
      host.handler,
      requestFor('/api/companies', { authorization: `Bearer ${key}` }),
    ],
    'Cerebro GET /companies/demo/api-config, límites del espacio': [
      host.handler,
      requestFor('/api/companies/demo/api-config', { authorization: `Bearer ${key}` }),
    ],
    'Cerebro GET /companies, cookie Studio': [
      host.handler,
      requestFor('/api/companies', { cookie: `cerebro_sesion=${session}` }),
    ],
  };
}

async function round([handler, makeRequest], n, awaitEach) {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const res = new FakeResponse();
    handler(makeRequest(), res);
    if (awaitEach && !res.writableEnded) await res.done();
    // Yield regularly, as a server does between socket reads: the log destinations flush, timers run.
    if ((i & 15) === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      if (res.statusCode !== 200) throw new Error(`answered ${res.statusCode}: ${res.body}`);
    }
  }
  await new Promise((resolve) => setImmediate(resolve));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Warms up, then interleaves the cases in ROUNDS rounds; prints each one's median CPU per request. */
async function measure(title, cases, perRound, awaitEach) {
  // Warm-up (JIT, caches, the database's plans): 20,000 calls, or one round's worth where each waits for the database.
  for (const c of Object.values(cases)) await round(c, awaitEach ? perRound : 20_000, awaitEach);
  const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (let r = 0; r < ROUNDS; r++)
    for (const [name, c] of Object.entries(cases)) samples[name].push(await round(c, perRound, awaitEach));
  console.log(`${title}: ${ROUNDS} rondas de ${perRound} peticiones, mediana de CPU por petición`);
  const base = median(samples['polka + 1 línea de log']);
  for (const [name, xs] of Object.entries(samples)) {
    const m = median(xs);
    console.log(`  ${name.padEnd(38)} ${m.toFixed(2).padStart(6)} µs   ${(m / base).toFixed(2)}× la base`);
  }
}

const embedded = await startBenchHost();
try {
  await measure('pipeline sin sockets (SQLite, por defecto)', await casesOn(embedded), PER_ROUND, false);
} finally {
  await embedded.close();
}

const { postgresState, postgresUnavailable } = await support('shared-state');
const missing = await postgresUnavailable();
if (missing) console.log(`pipeline en PostgreSQL + Redis: no medido: ${missing}`);
else {
  const state = await postgresState();
  const remote = await startBenchHost({
    databaseUrl: state.env.CEREBRO_DATABASE_URL,
    redisUrl: state.env.CEREBRO_REDIS_URL,
  });
  try {
    await measure('pipeline sin sockets (PostgreSQL + Redis)', await casesOn(remote), PER_ROUND_REMOTE, true);
  } finally {
    await remote.close();
    await state.close();
  }
}
