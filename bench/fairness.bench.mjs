// `npm run bench -- fairness`: can one tenant flooding questions at a large space starve another tenant's questions?
// One data folder holds a large space ("grande", FAIRNESS_PASSAGES passages, default 500,000, made of sentences of
// the Debian reference manual) and a small one ("pequeno", 2,000 passages), each owned by its own account and asked
// through its own key over HTTP. The small tenant asks questions one after another, alone and then while the large
// tenant floods 40 parallel question loops (within its per-minute limit, the default 600), twice in the same run:
//   antes:   the full-text match on the main thread and no per-space turns (CEREBRO_SEARCH_THREADS=0, a gate wide open),
//   despues: the defaults (search threads, one question at a time per space, a bounded line with 503 + Retry-After).
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startHost } from '@cerebro/host';
import { CORPORA, cerebro, corpusFiles, fmt, line, pct, rng } from './support/cerebro-corpus.mjs';

const hostDist = new URL('../host/dist/', import.meta.url);
const { HOST_MIGRATIONS } = await import(new URL('storage/migrations/index.js', hostDist).href);
const { applyMigrations } = await import(new URL('storage/migrator.js', hostDist).href);

const PASSAGES = Number(process.env.FAIRNESS_PASSAGES ?? 500_000);
const SMALL_PASSAGES = 2_000;
const FLOOD_LOOPS = 40;
const SMALL_QUESTIONS = 40;
const SMALL_BUDGET_MS = 30_000;

// Sentences of the manual, analysed once: a passage is 5 of them, its index terms the concatenation of theirs.
const sentences = [];
for (const f of corpusFiles(CORPORA.guia)) {
  const text = readFileSync(f.path, 'utf8')
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/g, ' ')
    .replace(/\s+/g, ' ');
  for (const s of cerebro.splitSentences(text)) if (s.length > 40 && s.length < 300) sentences.push(s);
}
const analysed = sentences.map((s) => ({ text: s, terms: cerebro.passageTerms(s, [], 'es').terms }));
const words = [...new Set(analysed.flatMap((s) => s.text.toLowerCase().match(/\p{L}{5,}/gu) ?? []))];

const dataDir = mkdtempSync(join(tmpdir(), 'cerebro-fairness-'));
const t0 = performance.now();
{
  const db = new Database(join(dataDir, 'cerebro.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  applyMigrations(db, { owner: 'host', migrations: HOST_MIGRATIONS });
  const repo = new cerebro.SqlitePassageIndexRepository(db);
  const random = rng(7);
  const now = new Date().toISOString();
  const addDoc =
    db.prepare(`INSERT INTO cerebro_documents (space, id, name, media_type, path, state, progress, created_at, updated_at, queued_at, passages, lang)
                             VALUES (?, ?, ?, 'text/plain', '-', 'ready', 1, ?, ?, ?, ?, 'es')`);
  const fill = async (space, count) => {
    const perDoc = 1000;
    for (let d = 0; d * perDoc < count; d++) {
      const n = Math.min(perDoc, count - d * perDoc);
      const passages = Array.from({ length: n }, (_, ord) => {
        const picked = Array.from({ length: 5 }, () => analysed[Math.floor(random() * analysed.length)]);
        return {
          ord,
          page: null,
          headings: [],
          text: picked.map((s) => s.text).join(' '),
          terms: picked.map((s) => s.terms).join(' '),
          headingTerms: '',
        };
      });
      addDoc.run(space, `d${d}`, `doc${d}.txt`, now, now, now, n);
      await repo.replaceDocument(space, `d${d}`, passages);
    }
  };
  await fill('grande', PASSAGES);
  await fill('pequeno', SMALL_PASSAGES);
  db.close();
}
const buildMs = performance.now() - t0;

const question = (random) =>
  `¿${Array.from({ length: 3 }, () => words[Math.floor(random() * words.length)]).join(' ')}?`;

/** One question; a connection the server dropped (its time limits, with the main thread held) counts as "reset". */
async function ask(base, key, space, pregunta) {
  const t = performance.now();
  try {
    const res = await fetch(`${base}/api/rag/${space}/conversations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pregunta }),
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - t };
  } catch {
    return { status: 'reset', ms: performance.now() - t };
  }
}

/** The small tenant's questions, one after another (bounded in count and time); sorted latencies of the 200s. */
async function smallTenant(base, key, seed) {
  const random = rng(seed);
  const ms = [];
  const statuses = new Map();
  const start = performance.now();
  while (ms.length < SMALL_QUESTIONS && performance.now() - start < SMALL_BUDGET_MS) {
    const r = await ask(base, key, 'pequeno', question(random));
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    if (r.status === 200) ms.push(r.ms);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { ms: ms.sort((a, b) => a - b), statuses };
}

let keys = null;
async function run(label, config) {
  const host = await startHost({
    config: {
      dataDir,
      port: 0,
      host: '127.0.0.1',
      discoverPlugins: false,
      bootstrapDemo: false,
      logLevel: 'info',
      ...config,
    },
    logDestination: pino.destination({ dest: '/dev/null', sync: false }),
  });
  const base = host.url;
  if (!keys) {
    keys = {};
    for (const space of ['grande', 'pequeno']) {
      const owner = await host.admin.createOwner({ name: `bench ${space}`, credits: 1_000_000 });
      await host.admin.createSpace({ id: space, ownerId: owner.id, modules: ['api'] });
      keys[space] = (await host.admin.issueKey(owner.id, 'bench', [], 'escribe')).token;
      // Every question distinct and uncached: the cost measured is the engine's.
      await fetch(`${base}/api/rag/${space}/config`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${keys[space]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ cache_segundos: 0 }),
      });
    }
  }
  for (let i = 0; i < 5; i++) await ask(base, keys.grande, 'grande', question(rng(100 + i)));
  const alone = await smallTenant(base, keys.pequeno, 1);

  let flooding = true;
  const flood = { ms: [], statuses: new Map() };
  const loops = Array.from({ length: FLOOD_LOOPS }, async (_, i) => {
    const random = rng(1000 + i);
    while (flooding) {
      const r = await ask(base, keys.grande, 'grande', question(random));
      flood.statuses.set(r.status, (flood.statuses.get(r.status) ?? 0) + 1);
      if (r.status === 200) flood.ms.push(r.ms);
      // A refused question (503 line full, 429 limit) waits as its Retry-After asks, as a well-behaved client does.
      else await new Promise((resolve) => setTimeout(resolve, r.status === 429 ? 1000 : 2000));
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const contended = await smallTenant(base, keys.pequeno, 1);
  flooding = false;
  await Promise.all(loops);
  await host.close();
  flood.ms.sort((a, b) => a - b);

  const s = (m) =>
    [...m]
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])))
      .map(([k, v]) => `${k}×${v}`)
      .join(' ');
  console.log(`\n-- ${label} --`);
  line(
    `small tenant alone:        p50 ${fmt(pct(alone.ms, 50), 1)} ms  p99 ${fmt(pct(alone.ms, 99), 1)} ms  (${alone.ms.length} answers)`,
  );
  line(
    `small tenant under flood:  p50 ${fmt(pct(contended.ms, 50), 1)} ms  p99 ${fmt(pct(contended.ms, 99), 1)} ms  (${contended.ms.length} answers; ${s(contended.statuses)})`,
    `→ p50 ×${fmt(pct(contended.ms, 50) / pct(alone.ms, 50), 1)}`,
  );
  line(
    `flooding tenant:           p50 ${flood.ms.length ? fmt(pct(flood.ms, 50), 1) : '-'} ms  p99 ${flood.ms.length ? fmt(pct(flood.ms, 99), 1) : '-'} ms  (statuses ${s(flood.statuses)})`,
  );
}

console.log(
  `\n== Fairness: a tenant flooding ${PASSAGES} passages with ${FLOOD_LOOPS} parallel questions vs another tenant's questions (${SMALL_PASSAGES} passages) ==`,
);
line(`spaces built in ${fmt(buildMs / 1000, 1)} s from ${sentences.length} sentences of the Debian reference manual`);
try {
  await run('antes: full-text match on the main thread, no per-space turns', {
    searchThreads: 0,
    questionsPerSpace: 10_000,
    questionQueuePerSpace: 10_000,
  });
  await run('despues: defaults (2 search threads, 1 question at a time per space, line of 20, wait ≤ 10 s)', {});
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
