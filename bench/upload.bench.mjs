#!/usr/bin/env node
// Peak memory of the server while documents are uploaded through POST /rag/{espacio}/load_documents (busboy
// streaming to disk, then indexing in a worker thread) until they are indexed, beside a bare node:http server that
// pipes the same body to a file, in the same run. Each server in its own process; the peak is the process's max RSS.
// Three loads: one 25 MB text, one 50 MB PDF (3,000 text pages, the rest an embedded binary stream, as scanned
// PDFs carry), and a batch of 20 files of 2.5 MB (text, Markdown, HTML, CSV).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { makePdf } from '../host/dist/cerebro/testing/fixtures.js';

const SERVER = fileURLToPath(new URL('support/upload-server.mjs', import.meta.url));
const MB = 1024 * 1024;
const line = 'La configuración de red se guarda en el archivo interfaces del directorio de red de Debian.\n';
const sized = (text, bytes) => Buffer.from(text.repeat(Math.ceil(bytes / Buffer.byteLength(text)))).subarray(0, bytes);

/** A PDF of `bytes` bytes: `pages` pages of text, padded with an unreferenced binary stream before the xref. */
function pdfOf(bytes, pages) {
  const text = makePdf(
    Array.from({ length: pages }, (_, p) =>
      Array.from({ length: 40 }, (_, l) => `Página ${p + 1}, línea ${l + 1}: ${line.trim()}`),
    ),
  );
  const at = text.lastIndexOf('xref\n');
  const padding = Buffer.alloc(Math.max(0, bytes - text.length - 64), 0x5a);
  // The padding goes right before the cross-reference table, as an object nothing refers to: the offsets of the
  // objects before it stand, and only `startxref` (the table's own offset) moves.
  const object = Buffer.concat([
    Buffer.from(`999 0 obj\n<< /Length ${padding.length} >>\nstream\n`),
    padding,
    Buffer.from('\nendstream\nendobj\n'),
  ]);
  const table = text
    .subarray(at)
    .toString('latin1')
    .replace(/startxref\n\d+/, `startxref\n${at + object.length}`);
  return Buffer.concat([text.subarray(0, at), object, Buffer.from(table, 'latin1')]);
}

const batchFiles = () =>
  Array.from({ length: 20 }, (_, i) => {
    const kinds = [
      ['txt', line],
      ['md', `## Sección ${i}\n\n${line}\n`],
      ['html', `<h2>Sección ${i}</h2><p>${line}</p>\n`],
      ['csv', 'clave,valor\nred,' + line.replace(/,/g, ' ')],
    ];
    const [ext, unit] = kinds[i % kinds.length];
    return [`lote-${i}.${ext}`, sized(unit, 2.5 * MB)];
  });

const LOADS = [
  ['un archivo de texto de 25 MB', () => [['grande.txt', sized(line, 25 * MB)]]],
  ['un PDF de 50 MB (3.000 páginas de texto)', () => [['grande.pdf', pdfOf(50 * MB, 3000)]]],
  ['un lote de 20 archivos de 2,5 MB (txt, md, html, csv)', batchFiles],
];

async function measure(mode, files) {
  const child = spawn(process.execPath, [SERVER, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise((resolve) =>
    createInterface({ input: child.stdout }).once('line', (l) => resolve(JSON.parse(l))),
  );
  const rss = async () => (await (await fetch(`http://127.0.0.1:${info.rssPort}/rss`)).json()).maxRssKb / 1024;
  const before = await rss();
  const started = performance.now();
  if (mode === 'raw') {
    await (
      await fetch(`http://127.0.0.1:${info.port}/upload`, {
        method: 'POST',
        body: Buffer.concat(files.map(([, b]) => b)),
      })
    ).text();
  } else {
    const form = new FormData();
    for (const [name, bytes] of files) form.append('archivos', new Blob([bytes]), name);
    const headers = { authorization: `Bearer ${info.key}` };
    const res = await fetch(`http://127.0.0.1:${info.port}/api/rag/demo/load_documents`, {
      method: 'POST',
      headers,
      body: form,
    });
    if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    let status;
    for (let i = 0; i < 3000; i++) {
      status = await (await fetch(`http://127.0.0.1:${info.port}/api/rag/demo/indexing_status`, { headers })).json();
      if (status.listo) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // A failed document would also end the wait, and measure nothing worth printing.
    const failed = status.documentos.filter((d) => d.estado !== 'listo');
    if (failed.length > 0)
      throw new Error(`not indexed: ${JSON.stringify(failed.map((d) => [d.nombre, d.estado, d.error]))}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const peak = await rss();
  child.kill('SIGTERM');
  return { before, peak, seconds };
}

const row = (label, m) =>
  `  ${label.padEnd(31)} RSS ${m.before.toFixed(0)} → pico ${m.peak.toFixed(0)} MB   (+${(m.peak - m.before).toFixed(0)} MB, ${m.seconds.toFixed(1)} s)`;
for (const [title, make] of LOADS) {
  const files = make();
  const raw = await measure('raw', files);
  const cerebro = await measure('cerebro', files);
  console.log(`upload: ${title}`);
  console.log(row('http crudo → archivo', raw));
  console.log(row('Cerebro subida + indexación', cerebro));
}
console.log(
  '  la subida se transmite a disco; el aumento de Cerebro es el de la indexación (texto y pasajes por ventanas)',
);
