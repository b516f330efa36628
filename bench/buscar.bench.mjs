#!/usr/bin/env node
// `npm run bench -- buscar`: what searching without an answer (`POST /rag/{espacio}/buscar`) costs against asking
// (`POST /rag/{espacio}/conversations`, the baseline) in the same run, over HTTP on loopback, on the Spanish Debian
// reference (debian-reference-es). The answer cache is off, so every question is composed; requests alternate
// (search, ask) so both see the same machine load. Medians and p90 of wall time per request.
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startHost } from '@cerebro/host';
import { CORPORA, corpusFiles, pct } from './support/cerebro-corpus.mjs';

const ROUNDS = Number(process.env.BENCH_BUSCAR_ROUNDS ?? 3);
const QUESTIONS = [
  '¿Cómo actualizo el sistema?',
  '¿Cómo instalo un paquete?',
  '¿Dónde se configura la red?',
  '¿Qué es sudo?',
  '¿Cómo hago una copia de seguridad?',
  '¿Cómo cambio la zona horaria?',
  '¿Qué hace apt-get autoremove?',
  '¿Cómo monto un disco USB?',
  '¿Cómo se comprueba el espacio libre en disco?',
  '¿Cómo añado un usuario?',
];

const dataDir = mkdtempSync(join(tmpdir(), 'cerebro-bench-buscar-'));
const host = await startHost({
  config: { dataDir, port: 0, host: '127.0.0.1', logLevel: 'info', discoverPlugins: false, bootstrapDemo: false },
  logDestination: pino.destination({ dest: '/dev/null', sync: false }),
});
try {
  const owner = await host.admin.createOwner({ name: 'bench', credits: 1_000_000 });
  await host.admin.createSpace({ id: 'demo', ownerId: owner.id, modules: ['api'] });
  const key = (await host.admin.issueKey(owner.id, 'bench', [], 'escribe')).token;
  const call = async (method, path, body) => {
    const init = { method, headers: { authorization: `Bearer ${key}` } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${host.url}/api${path}`, init);
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const files = corpusFiles(CORPORA.guia);
  for (let i = 0; i < files.length; i += 10) {
    const form = new FormData();
    for (const f of files.slice(i, i + 10)) form.append('archivos', new Blob([readFileSync(f.path)]), f.name);
    await call('POST', '/rag/demo/load_documents', form);
  }
  for (let status; !(status = await call('GET', '/rag/demo/indexing_status')).listo; )
    await new Promise((r) => setTimeout(r, 200));
  const { pasajes } = await call('GET', '/rag/demo/indexing_status');
  await call('PATCH', '/rag/demo/config', { cache_segundos: 0 });

  const times = { buscar: [], preguntar: [] };
  const timed = async (label, path, body) => {
    const started = performance.now();
    await call('POST', path, body);
    times[label].push(performance.now() - started);
  };
  // One warm-up of each, not counted.
  await call('POST', '/rag/demo/buscar', { pregunta: QUESTIONS[0] });
  await call('POST', '/rag/demo/conversations', { pregunta: QUESTIONS[0] });
  for (let round = 0; round < ROUNDS; round++)
    for (const pregunta of QUESTIONS) {
      await timed('buscar', '/rag/demo/buscar', { pregunta });
      await timed('preguntar', '/rag/demo/conversations', { pregunta });
    }
  const stats = (xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return { p50: pct(sorted, 50), p90: pct(sorted, 90) };
  };
  const s = stats(times.buscar);
  const a = stats(times.preguntar);
  console.log(
    `${files.length} documentos, ${pasajes} pasajes; ${times.buscar.length} peticiones de cada ruta, alternadas:`,
  );
  console.log(`  POST /conversations (referencia)  p50 ${a.p50.toFixed(1)} ms  p90 ${a.p90.toFixed(1)} ms`);
  console.log(`  POST /buscar                      p50 ${s.p50.toFixed(1)} ms  p90 ${s.p90.toFixed(1)} ms`);
  console.log(`  buscar/preguntar (p50): ${(s.p50 / a.p50).toFixed(2)}×`);
} finally {
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
}
