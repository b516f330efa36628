#!/usr/bin/env node
// Peak memory of the server while a 25 MB document is uploaded through POST /rag/{espacio}/load_documents
// (busboy streaming to disk, then indexing in a worker thread), beside a bare node:http server that pipes the same
// body to a file, in the same run. Each server in its own process; the peak is the process's max RSS.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('support/upload-server.mjs', import.meta.url));
const MB = 1024 * 1024;
const line = 'La configuración de red se guarda en el archivo interfaces del directorio de red de Debian.\n';
const body = Buffer.from(line.repeat(Math.ceil((25 * MB) / Buffer.byteLength(line)))).subarray(0, 25 * MB);

async function measure(mode) {
  const child = spawn(process.execPath, [SERVER, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', (l) => resolve(JSON.parse(l))));
  const rss = async () => (await (await fetch(`http://127.0.0.1:${info.rssPort}/rss`)).json()).maxRssKb / 1024;
  const before = await rss();
  const started = performance.now();
  if (mode === 'raw') {
    await (await fetch(`http://127.0.0.1:${info.port}/upload`, { method: 'POST', body })).text();
  } else {
    const form = new FormData();
    form.append('archivos', new Blob([body]), 'grande.txt');
    const headers = { authorization: `Bearer ${info.key}` };
    const res = await fetch(`http://127.0.0.1:${info.port}/api/rag/demo/load_documents`, { method: 'POST', headers, body: form });
    if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    let status;
    for (let i = 0; i < 1200; i++) {
      status = await (await fetch(`http://127.0.0.1:${info.port}/api/rag/demo/indexing_status`, { headers })).json();
      if (status.listo) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // A failed document would also end the wait, and measure nothing worth printing.
    const doc = status.documentos[0];
    if (doc?.estado !== 'listo') throw new Error(`the document did not index: ${JSON.stringify(doc?.error ?? status)}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const peak = await rss();
  child.kill('SIGTERM');
  return { mode, before, peak, seconds };
}

const raw = await measure('raw');
const cerebro = await measure('cerebro');
console.log('upload: un archivo de texto de 25 MB');
console.log(`  http crudo → archivo            RSS ${raw.before.toFixed(0)} → pico ${raw.peak.toFixed(0)} MB   (+${(raw.peak - raw.before).toFixed(0)} MB, ${raw.seconds.toFixed(1)} s)`);
console.log(`  Cerebro subida + indexación    RSS ${cerebro.before.toFixed(0)} → pico ${cerebro.peak.toFixed(0)} MB   (+${(cerebro.peak - cerebro.before).toFixed(0)} MB, ${cerebro.seconds.toFixed(1)} s)`);
console.log(`  la subida en sí se transmite a disco; el aumento de Cerebro es de la indexación (texto y pasajes en memoria)`);
