// What the Cerebro benchmarks share: the engine's built modules, an in-memory migrated database, the Debian
// documentation corpora installed on this machine, and the 50,000-passage space that question latency is measured on.
import Database from 'better-sqlite3';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const dist = new URL('../../host/dist/cerebro/', import.meta.url);
if (!existsSync(new URL('index.js', dist))) {
  console.error('cerebro bench: host/dist/cerebro is missing; run `npx tsc -b host` first.');
  process.exit(1);
}
const load = (path) => import(new URL(path, dist).href);
const { SqlitePassageIndexRepository } = await load('../storage/sqlite/passage-index/passage-index-repository.js');
const { PassageIndex } = await load('index/passage-index.js');
export const cerebro = {
  ...(await load('index.js')),
  ...(await load('index/passage-index.js')),
  SqlitePassageIndexRepository,
  /** The engine's passage index over a SQLite database (matched on the calling thread). */
  passageIndexOf: (db) => new PassageIndex(new SqlitePassageIndexRepository(db)),
  ...(await load('extract/prepare.js')),
  ...(await load('text/analyzer.js')),
  ...(await load('text/sentences.js')),
};

export const LATENCY_PASSAGES = 50_000;
export const LATENCY_TARGETS = { p50: 25, p99: 100 };

export const fmt = (n, d = 3) => n.toFixed(d);
export const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
export const median = (values) =>
  pct(
    [...values].sort((a, b) => a - b),
    50,
  );
export const line = (...cols) => console.log(cols.join('  '));

export function openDb() {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec(cerebro.CEREBRO_MIGRATION.sql);
  db.exec(cerebro.CEREBRO_HIDDEN_PASSAGES_MIGRATION.sql);
  db.exec(cerebro.CEREBRO_FAIR_QUEUE_MIGRATION.sql);
  db.exec(cerebro.CEREBRO_JOB_LEASES_MIGRATION.sql);
  db.exec(cerebro.CEREBRO_PASSAGE_OCR_SQL);
  return db;
}

/** Deterministic pseudo-random numbers (mulberry32), so every run builds the same synthetic passages. */
export function rng(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Spanish Debian documentation packages. The FreedomBox manual ships each page alone and also all of them joined
 * (Manual, freedombox-manual): only the single pages are taken, so no passage is indexed twice.
 */
export const CORPORA = {
  guia: {
    package: 'debian-reference-es',
    dir: '/usr/share/debian-reference',
    files: (names) => names.filter((f) => /^(ch\d+|apa|pr01)\.es\.html$/.test(f)),
  },
  freedombox: {
    package: 'freedombox-doc-es',
    dir: '/usr/share/freedombox/manual/es',
    files: (names) =>
      names.filter((f) => f.endsWith('.part.html') && !/^(Manual|freedombox-manual)\.part\.html$/.test(f)),
  },
};

/** The HTML files of one corpus, sorted; exits with a clear message when its package is not installed. */
export function corpusFiles(corpus) {
  if (!existsSync(corpus.dir)) {
    console.error(`cerebro bench: ${corpus.dir} not found; install the Debian package ${corpus.package}.`);
    process.exit(1);
  }
  return corpus
    .files(readdirSync(corpus.dir))
    .sort()
    .map((name) => ({ name, path: join(corpus.dir, name) }));
}

/** Indexes corpora through the engine (worker thread, as an upload is processed) into one space; returns its ms. */
export async function indexCorpora(engine, space, corpora) {
  const t0 = performance.now();
  for (const corpus of corpora) {
    for (const f of corpusFiles(corpus)) engine.documents.submit(space, { ...f, mediaType: 'text/html', bytes: 0 });
  }
  await engine.documents.idle();
  const status = await engine.documents.status(space);
  if (status.failed)
    throw new Error(`corpus failed to index: ${JSON.stringify(status.documents.filter((d) => d.state === 'failed'))}`);
  return performance.now() - t0;
}

export function spacePassages(db, space) {
  return db
    .prepare('SELECT id, document_id, ord, headings, text FROM cerebro_passages WHERE space = ? ORDER BY id')
    .all(space)
    .map((p) => ({ ...p, headings: JSON.parse(p.headings) }));
}

/**
 * A space "grande" of `LATENCY_PASSAGES` passages: the real ones given, then passages made of their sentences, written
 * as the indexing runner writes (batches of 256, hidden until the document's swap) so the full-text index has the
 * segment structure a real server's has; then a fifth of the documents replaced and purged (deletes fragment an FTS5
 * index: without this the latency would be that of a fresh index only), and a neighbour space of 20,000 passages
 * to show that isolation does not cost latency. Returns the database, its index and an engine over it.
 */
export async function buildLatencySpace(realTexts) {
  const { passageIndexOf, CerebroEngine, passageTerms, splitSentences, PURGE_BATCH } = cerebro;
  const big = openDb();
  const bigIndex = passageIndexOf(big);
  const repo = bigIndex.repository;
  const texts = [...realTexts];
  const sentencePool = texts
    .flatMap((p) => p.text.split('\n').flatMap((para) => splitSentences(para)))
    .filter((s) => s.length > 30);
  const random = rng(42);
  const filler = [];
  while (texts.length + filler.length < LATENCY_PASSAGES) {
    let text = '';
    while (text.length < 600) text += `${sentencePool[Math.floor(random() * sentencePool.length)]} `;
    filler.push({ text: text.trim(), headings: [] });
  }
  const all = [...texts, ...filler];
  const t0 = performance.now();
  const now = new Date().toISOString();
  const perDoc = 1000;
  const write = async (d, runId) => {
    const run = { space: 'grande', id: `d${d}`, runId };
    const passages = all.slice(d * perDoc, (d + 1) * perDoc).map((p, ord) => ({
      ord,
      text: p.text,
      page: null,
      headings: p.headings,
      ...passageTerms(p.text, p.headings, p.lang ?? 'es'),
    }));
    for (let i = 0; i < passages.length; i += 256) await repo.addHidden(run, passages.slice(i, i + 256));
    big.transaction(() => repo.jobSteps(null).swapIn(run))();
  };
  for (let d = 0; d * perDoc < all.length; d++) {
    big
      .prepare(`INSERT INTO cerebro_documents (space, id, name, media_type, path, state, created_at, updated_at, queued_at, passages)
                 VALUES ('grande', ?, ?, 'text/plain', '-', 'ready', ?, ?, ?, ?)`)
      .run(`d${d}`, `doc${d}.txt`, now, now, now, perDoc);
    await write(d, d + 1);
  }
  for (let d = 0; d * perDoc < all.length; d += 5) {
    await write(d, 100_000 + d);
    while ((await repo.purge(PURGE_BATCH, null)).length === PURGE_BATCH);
  }
  big
    .prepare(`INSERT INTO cerebro_documents (space, id, name, media_type, path, state, created_at, updated_at, queued_at)
               VALUES ('vecino', 'v', 'v.txt', 'text/plain', '-', 'ready', ?, ?, ?)`)
    .run(now, now, now);
  await repo.replaceDocument(
    'vecino',
    'v',
    filler
      .slice(0, 20_000)
      .map((p, ord) => ({ ord, text: p.text, page: null, headings: [], ...passageTerms(p.text, [], 'es') })),
  );
  const engine = new CerebroEngine({
    db: big,
    pool: {
      prepare: async () => {
        throw new Error('unused');
      },
      close: async () => {},
    },
  });
  return { db: big, index: bigIndex, engine, passages: all.length, buildMs: performance.now() - t0 };
}

/** Question latency over the latency space: BM25 retrieval alone and the whole extractive answer, sorted ms. */
export async function measureLatency(space, questions) {
  for (const q of questions.slice(0, 30)) await space.engine.ask({ space: 'grande', question: q }); // warm-up
  const askMs = [];
  const searchMs = [];
  let answered = 0;
  for (const q of questions) {
    let t = performance.now();
    await space.index.search('grande', q, 5);
    searchMs.push(performance.now() - t);
    t = performance.now();
    const a = await space.engine.ask({ space: 'grande', question: q });
    askMs.push(performance.now() - t);
    if (a.found) answered++;
  }
  askMs.sort((a, b) => a - b);
  searchMs.sort((a, b) => a - b);
  return { askMs, searchMs, answered, p50: pct(askMs, 50), p99: pct(askMs, 99) };
}

export function printLatency(space, questionCount, lat) {
  const met = lat.p50 < LATENCY_TARGETS.p50 && lat.p99 < LATENCY_TARGETS.p99;
  console.log(
    `\n== Cerebro: question latency, ${space.passages} passages in the space (+20000 in a neighbour space), after a fifth of its documents were replaced ==`,
  );
  line(
    `index built in ${fmt(space.buildMs / 1000, 1)} s; ${questionCount} questions, ${lat.answered} answered from the documents`,
  );
  line(`retrieval only (BM25 top-5): p50 ${fmt(pct(lat.searchMs, 50), 2)} ms  p99 ${fmt(pct(lat.searchMs, 99), 2)} ms`);
  line(
    `full extractive answer:      p50 ${fmt(lat.p50, 2)} ms  p99 ${fmt(lat.p99, 2)} ms  max ${fmt(lat.askMs.at(-1), 1)} ms`,
    `(targets p50 < ${LATENCY_TARGETS.p50} ms, p99 < ${LATENCY_TARGETS.p99} ms: ${met ? 'met' : 'NOT met'})`,
  );
}
