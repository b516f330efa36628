#!/usr/bin/env node
// Cerebro engine benchmark (run after `tsc -b`): retrieval quality on a real Spanish corpus that nobody here wrote
// (Debian's "Guía de referencia de Debian", package debian-reference-es), compared in the same run with plain
// SQLite FTS5 BM25 over the same passages; question latency with 50,000 passages in one space; indexing throughput
// of plain text; peak memory while indexing a 25 MB file. Bounded: every stage has a fixed size.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  CORPORA,
  buildLatencySpace,
  cerebro,
  corpusFiles,
  fmt,
  indexCorpora,
  line,
  measureLatency,
  openDb,
  printLatency,
  spacePassages,
} from './support/cerebro-corpus.mjs';

const { CerebroEngine, passageIndexOf, passageTerms, prepareDocument, queryTermGroups } = cerebro;
const CORPUS = CORPORA.guia.dir;
const TARGETS = { mbps: 2 };
const work = await mkdtemp(join(tmpdir(), 'cerebro-bench-'));

// ---------------------------------------------------------------------------------------------------------------
// 1. Retrieval quality
// ---------------------------------------------------------------------------------------------------------------
const db = openDb();
const engine = new CerebroEngine({ db });
engine.start();
const chapters = corpusFiles(CORPORA.guia);
const htmlIndexMs = await indexCorpora(engine, 'guia', [CORPORA.guia]);

const passages = spacePassages(db, 'guia');

// Questions: section headings (depth >= 2), numbering stripped, unique in the corpus, with >= 2 content words.
// The answer is any passage of that very section.
const stripNumber = (h) =>
  h
    .replace(/^(Capítulo|Apéndice)\s+[\dA-Z]+\.\s*/, '')
    .replace(/^[\dA-Z]+(\.\d+)+\.?\s+/, '')
    .trim();
const sections = new Map();
for (const p of passages) {
  if (p.headings.length < 2) continue;
  const key = p.headings.join('\u0001');
  if (!sections.has(key)) sections.set(key, { heading: stripNumber(p.headings.at(-1)), ids: [] });
  sections.get(key).ids.push(p.id);
}
const leafCount = new Map();
for (const s of sections.values())
  leafCount.set(s.heading.toLowerCase(), (leafCount.get(s.heading.toLowerCase()) ?? 0) + 1);
const questions = [...sections.values()].filter(
  (s) => leafCount.get(s.heading.toLowerCase()) === 1 && queryTermGroups(s.heading).length >= 2,
);
const casual = (q) =>
  q
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');

// Plain BM25 baseline: default FTS5 tokenizer (unicode61), same passages with their heading path, OR of the words.
function plainIndex(withHeadings) {
  db.exec('DROP TABLE IF EXISTS bench_plain; CREATE VIRTUAL TABLE bench_plain USING fts5(body)');
  const ins = db.prepare('INSERT INTO bench_plain (rowid, body) VALUES (?, ?)');
  db.transaction(() => {
    for (const p of passages) ins.run(p.id, withHeadings ? `${p.headings.join('\n')}\n${p.text}` : p.text);
  })();
  const q = db.prepare('SELECT rowid AS id FROM bench_plain WHERE bench_plain MATCH ? ORDER BY rank LIMIT ?').pluck();
  return (question, k) => {
    const words = [...new Set(question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
    return words.length ? q.all(words.map((w) => `"${w}"`).join(' OR '), k) : [];
  };
}

// The engine's index of the same passages without heading terms (to judge body text retrieval alone).
async function bodyOnlyEngine() {
  const index = passageIndexOf(db);
  const t = new Date().toISOString();
  const docs = db.prepare('SELECT * FROM cerebro_documents WHERE space = ?').all('guia');
  const map = new Map();
  for (const d of docs) {
    db.prepare(`INSERT INTO cerebro_documents (space, id, name, media_type, path, state, created_at, updated_at, queued_at)
                VALUES ('cuerpo', ?, ?, ?, ?, 'ready', ?, ?, ?)`).run(d.id, d.name, d.media_type, d.path, t, t, t);
    const own = passages.filter((p) => p.document_id === d.id);
    const ids = await index.repository.replaceDocument(
      'cuerpo',
      d.id,
      own.map((p) => ({ ...p, page: null, headings: [], ...passageTerms(p.text, [], d.lang ?? 'es') })),
    );
    own.forEach((p, i) => map.set(ids[i], p.id));
  }
  return async (question, k) => (await index.search('cuerpo', question, k)).map((h) => map.get(h.id));
}

async function evaluate(rank, variant) {
  let r1 = 0,
    r5 = 0,
    mrr = 0;
  for (const s of questions) {
    const ids = await rank(variant(s.heading), 10);
    const relevant = new Set(s.ids);
    const pos = ids.findIndex((id) => relevant.has(id));
    if (pos === 0) r1++;
    if (pos >= 0 && pos < 5) r5++;
    if (pos >= 0) mrr += 1 / (pos + 1);
  }
  const n = questions.length;
  return { r1: r1 / n, r5: r5 / n, mrr: mrr / n };
}

const engineRank = async (q, k) => (await engine.index.search('guia', q, k)).map((h) => h.id);
const plainWith = plainIndex(true);
const rows = [];
for (const [label, variant] of [
  ['título tal cual', (q) => q],
  ['minúsculas sin tildes', casual],
]) {
  rows.push([`engine   | con títulos | ${label}`, await evaluate(engineRank, variant)]);
  rows.push([`fts5 bm25| con títulos | ${label}`, await evaluate(plainWith, variant)]);
}
const bodyEngine = await bodyOnlyEngine();
const plainBody = plainIndex(false);
for (const [label, variant] of [
  ['título tal cual', (q) => q],
  ['minúsculas sin tildes', casual],
]) {
  rows.push([`engine   | solo cuerpo | ${label}`, await evaluate(bodyEngine, variant)]);
  rows.push([`fts5 bm25| solo cuerpo | ${label}`, await evaluate(plainBody, variant)]);
}
db.exec('DROP TABLE IF EXISTS bench_plain');

// Hybrid (BM25 + vectors, RRF) needs an embedding model on disk; none ships in any package this machine can reach.
const modelDir = process.env.CEREBRO_BENCH_EMBEDDING_MODEL;
let hybridNote =
  'hybrid BM25+vectors: not measured (set CEREBRO_BENCH_EMBEDDING_MODEL=<dir with model.onnx and vocab.txt>)';
if (modelDir) {
  const hdb = openDb();
  const hybrid = await CerebroEngine.create({ db: hdb, embeddingModel: { dir: modelDir } });
  hybrid.start();
  await indexCorpora(hybrid, 'guia', [CORPORA.guia]);
  // Same files, same chunking: passages map one to one by document name and order.
  const key = (docName, ord) => `${docName}\u0000${ord}`;
  const names = new Map(
    db
      .prepare('SELECT id, name FROM cerebro_documents WHERE space = ?')
      .all('guia')
      .map((d) => [d.id, d.name]),
  );
  const toMain = new Map(passages.map((p) => [key(names.get(p.document_id), p.ord), p.id]));
  const hybridRank = async (q, k) =>
    (await hybrid.search('guia', q, k)).map((h) => toMain.get(key(h.documentName, h.ord)));
  const ranked = new Map();
  for (const s of questions) ranked.set(s.heading, await hybridRank(s.heading, 10));
  rows.unshift([
    `hybrid   | con títulos | título tal cual`,
    await evaluate(
      (q) => ranked.get(q),
      (q) => q,
    ),
  ]);
  hybridNote = `hybrid BM25+vectors with ${modelDir}`;
  await hybrid.stop();
  hdb.close();
}

console.log('\n== Cerebro: retrieval quality (debian-reference-es, HTML) ==');
line(
  `corpus: ${chapters.length} HTML files, ${passages.length} passages, indexed in ${fmt(htmlIndexMs / 1000, 2)} s;`,
  `questions: ${questions.length} section headings (answer = a passage of that section)`,
);
line(hybridNote);
line('ranking   | index       | question form          | recall@1 | recall@5 | MRR');
for (const [label, m] of rows)
  line(`${label.padEnd(48)} | ${fmt(m.r1).padStart(8)} | ${fmt(m.r5).padStart(8)} | ${fmt(m.mrr)}`);

// ---------------------------------------------------------------------------------------------------------------
// 2. Question latency with 50,000 passages in the space (real passages + passages of real corpus sentences)
// ---------------------------------------------------------------------------------------------------------------
const pdf = await prepareDocument({ path: join(CORPUS, 'debian-reference.es.pdf'), name: 'guia.pdf' });
const realTexts = [
  ...passages.map((p) => ({ text: p.text, headings: p.headings })),
  ...pdf.document.passages.map((p) => ({ text: p.text, headings: [] })),
];
const latencySpace = await buildLatencySpace(realTexts);
const latencyQuestions = [
  ...questions.map((q) => q.heading),
  ...questions.map((q) => `¿Cómo se hace ${casual(q.heading)}?`),
];
printLatency(latencySpace, latencyQuestions.length, await measureLatency(latencySpace, latencyQuestions));
latencySpace.db.close();
const now = new Date().toISOString();

// ---------------------------------------------------------------------------------------------------------------
// 3. Indexing throughput of plain text, and peak memory while indexing a 25 MB file
// ---------------------------------------------------------------------------------------------------------------
const plain = gunzipSync(readFileSync(join(CORPUS, 'debian-reference.es.txt.gz'))).toString('utf8');
const fiveMb = join(work, 'guia-5mb.txt');
await writeFile(fiveMb, plain.repeat(Math.ceil(5e6 / Buffer.byteLength(plain))));
const fiveBytes = Buffer.byteLength(readFileSync(fiveMb));
const tdb = openDb();
const tIndex = passageIndexOf(tdb);
let t0 = performance.now();
const prepared = await prepareDocument({ path: fiveMb, name: 'guia.txt' });
const prepMs = performance.now() - t0;
t0 = performance.now();
tdb
  .prepare(`INSERT INTO cerebro_documents (space, id, name, media_type, path, state, created_at, updated_at, queued_at)
             VALUES ('t', 't', 't.txt', 'text/plain', '-', 'processing', ?, ?, ?)`)
  .run(now, now, now);
await tIndex.repository.replaceDocument('t', 't', prepared.document.passages);
const insertMs = performance.now() - t0;
const mbps = fiveBytes / 1e6 / ((prepMs + insertMs) / 1000);
tdb.close();

// Through the engine: worker thread + SQLite commit, as an upload is processed; RSS sampled every 10 ms.
const big25 = join(work, 'guia-25mb.txt');
await writeFile(big25, plain.repeat(Math.ceil(25e6 / Buffer.byteLength(plain))));
const bytes25 = Buffer.byteLength(readFileSync(big25));
const edb = openDb();
const e25 = new CerebroEngine({ db: edb });
e25.start();
const rssBefore = process.memoryUsage().rss;
let peak = rssBefore;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 10);
t0 = performance.now();
e25.documents.submit('m', { name: 'guia-25mb.txt', path: big25, mediaType: 'text/plain', bytes: bytes25 });
await e25.documents.idle();
const e25Ms = performance.now() - t0;
clearInterval(sampler);
const e25Doc = (await e25.documents.status('m')).documents[0];
await e25.stop();
edb.close();

console.log('\n== Cerebro: indexing ==');
line(
  `plain text ${fmt(fiveBytes / 1e6, 1)} MB in one thread: extract+chunk+stem ${fmt(prepMs / 1000, 2)} s, SQLite insert ${fmt(insertMs / 1000, 2)} s`,
  `-> ${fmt(mbps, 2)} MB/s (target >= ${TARGETS.mbps} MB/s: ${mbps >= TARGETS.mbps ? 'met' : 'NOT met'})`,
);
line(
  `25 MB file through the engine (worker thread + commit): ${fmt(e25Ms / 1000, 1)} s -> ${fmt(bytes25 / 1e6 / (e25Ms / 1000), 2)} MB/s,`,
  `${e25Doc.passages} passages, state ${e25Doc.state}; process RSS ${fmt(rssBefore / 1e6, 0)} MB before, peak ${fmt(peak / 1e6, 0)} MB`,
);

await engine.stop();
await rm(work, { recursive: true, force: true });
