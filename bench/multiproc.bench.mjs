#!/usr/bin/env node
// Several API processes on one data folder (issue #24): requests per second of 1 vs 2 `cerebro serve --rol api`
// processes sharing one SQLite database, in the same run, load from a third process spread over their ports.
// The route is a space route with a per-minute limit (GET /api/rag/demo/documents, limit 10^9): every request
// counts in the shared database (one upsert of the minute's window), so the figure includes the cost of exact
// limits across processes. On a 2-core machine the load generator shares the cores with the servers.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFromProcess } from './support/load-from-process.mjs';

const CLI = fileURLToPath(new URL('../host/dist/cli/main.js', import.meta.url));
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

/** `cerebro serve --rol <role>` on `dataDir`; resolves with its base URL once its banner is out. */
function serve(dataDir, role = 'api') {
  const child = spawn(process.execPath, [CLI, 'serve', '--rol', role], {
    env: {
      ...process.env,
      CEREBRO_DATA_DIR: dataDir,
      CEREBRO_PORT: '0',
      CEREBRO_LOG_LEVEL: 'warn',
      CEREBRO_DISCOVER_PLUGINS: 'false',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      const url = /(http:\/\/127\.0\.0\.1:\d+)\/api/.exec(err)?.[1];
      if (url && /openapi\.json/.test(err)) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

const load = (urls, headers, seconds) => loadFromProcess(urls, headers, seconds, CONNECTIONS);

const dataDir = mkdtempSync(join(tmpdir(), 'cerebro-bench-multiproc-'));
const servers = [];
try {
  servers.push(await serve(dataDir)); // the first creates the demo owner, space and key
  const key = /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(readFileSync(join(dataDir, 'primer-arranque.txt'), 'utf8'))[0];
  const headers = { authorization: `Bearer ${key}` };
  const patched = await fetch(`${servers[0].url}/api/companies/demo/api-config`, {
    method: 'PATCH',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ limite_por_minuto: 1_000_000_000 }),
  });
  if (patched.status !== 200) throw new Error(`api-config: ${patched.status}`);
  servers.push(await serve(dataDir));
  // The single-process baseline: `--rol todo` counts its limits in memory (no write per request).
  servers.push(await serve(dataDir, 'todo'));
  const path = '/api/rag/demo/documents';
  const rows = [];
  for (const n of [1, 2, 0, 1, 2, 0]) {
    const urls = (n === 0 ? [servers[2]] : servers.slice(0, n)).map((s) => `${s.url}${path}`);
    await load(urls, headers, 2); // warm-up
    const r = await load(urls, headers, SECONDS);
    const bad = r.non2xx + r.errors + r.timeouts;
    if (bad > 0) throw new Error(`${n} procesos: ${bad} peticiones fallidas`);
    rows.push({ n, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 });
  }
  console.log(
    `multiproc: GET ${path} autenticado, ${CONNECTIONS} conexiones, ${SECONDS} s por medida, límite por minuto en la base compartida`,
  );
  const label = (n) =>
    n === 0 ? '1 proceso  todo (límites en memoria)' : `${n} proceso${n > 1 ? 's' : ' '} api`.padEnd(35);
  for (const r of rows)
    console.log(
      `  ${label(r.n)}   ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms`,
    );
  const mean = (n) => rows.filter((r) => r.n === n).reduce((s, r) => s + r.rps, 0) / 2;
  console.log(
    `  2 api / 1 api: ${((mean(2) / mean(1)) * 100).toFixed(0)} %   1 api / 1 todo: ${((mean(1) / mean(0)) * 100).toFixed(0)} % (medias de dos rondas alternas)`,
  );
} finally {
  for (const s of servers) s.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dataDir, { recursive: true, force: true });
}
