#!/usr/bin/env node
// The shared question-answering set (../shared/qa, see its README): questions written independently of the engine
// over five corpora (debian-handbook in Spanish plus four business documents), each corpus its own space, every item
// with a split (`dev` to tune on, `validacion` only to report). This module indexes the corpora through the real
// engine, asks every question (and every conversation, turn by turn with its history), and scores as the set's README
// says: an answerable question counts only when the engine claims an answer holding EVERY key; an unanswerable one
// only when it declines. Beside it, in the same run, plain FTS5 BM25 over the same passages: whether its top 5 hold
// every key, compared with the engine's top 5 (retrieval recall).
//
// Reused by the answers benchmark (`npm run bench -- respuestas`) and by calibration/training scripts:
//   const qa = await indexSharedQa();            // { db, engine, spaces, questions, conversations, indexMs }
//   const records = await askSharedQa(qa.engine, { db: qa.db, qa });
//   const summary = score(records);              // per split, per corpus
// Run alone (`node bench/respuestas/shared-qa.mjs`, after `npx tsc -b`) it prints the report and writes the records to
// .bench/shared-qa-records.json. Quick mode: CEREBRO_QA_SPLIT=dev, CEREBRO_QA_CORPUS=muebles (comma lists allowed).
// CEREBRO_QA_DIR points at the set (default: <repo>/../shared/qa).
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cerebro, fmt, line, openDb, spacePassages } from '../support/cerebro-corpus.mjs';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const dist = new URL('../../host/dist/cerebro/', import.meta.url);
const { searchText } = await import(new URL('answer/extractive.js', dist).href);

// Beside the checkout (<repo>/../shared/qa); a git worktree one level further down (…/wt/<name>) finds it one higher.
export const QA_DIR =
  process.env.CEREBRO_QA_DIR ??
  [join(REPO, '..', 'shared', 'qa'), join(REPO, '..', '..', 'shared', 'qa')].find((d) => existsSync(d)) ??
  join(REPO, '..', 'shared', 'qa');
export const HANDBOOK_DIR = '/usr/share/doc/debian-handbook/html/es-ES/';
export const RECORDS_FILE = join(REPO, '.bench', 'shared-qa-records.json');
/** Depth at which retrieval recall is compared: the passages an answer is drawn from (DEFAULT_ANSWER_OPTIONS.passages). */
export const RECALL_DEPTH = 5;
/** Earlier turns handed to the engine with a conversation turn, as the conversation store does (6 exchanges). */
const HISTORY_TURNS = 12;
export const TARGETS = { answered: 0.75, declined: 0.9, precision: 0.85, turns: 0.75, medianWords: 60 };

const list = (value) =>
  value
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : null;

/** The set itself (questions, conversations, corpora), filtered by split/corpus (env or arguments). */
export function loadSharedQa({
  splits = list(process.env.CEREBRO_QA_SPLIT),
  corpora = list(process.env.CEREBRO_QA_CORPUS),
} = {}) {
  const file = join(QA_DIR, 'preguntas.json');
  if (!existsSync(file)) {
    throw new Error(
      `shared QA set not found at ${QA_DIR} (expected preguntas.json and documentos/); set CEREBRO_QA_DIR to its folder`,
    );
  }
  const set = JSON.parse(readFileSync(file, 'utf8'));
  const keep = (item) => (!splits || splits.includes(item.split)) && (!corpora || corpora.includes(item.corpus));
  const questions = set.preguntas.filter(keep);
  const conversations = set.conversaciones.filter(keep);
  const used = new Set([...questions, ...conversations].map((i) => i.corpus));
  const names = Object.keys(set.corpus).filter((c) => used.has(c));
  return { corpus: set.corpus, corpora: names, questions, conversations };
}

/** The files of one corpus, as the engine receives them from an upload. */
export function corpusDocuments(name, description) {
  if (name === 'debian-handbook') {
    if (!existsSync(HANDBOOK_DIR))
      throw new Error(`${HANDBOOK_DIR} not found: install the Debian package debian-handbook`);
    return readdirSync(HANDBOOK_DIR)
      .filter((f) => f.endsWith('.html'))
      .sort()
      .map((f) => ({ name: f, path: join(HANDBOOK_DIR, f), mediaType: 'text/html', bytes: 0 }));
  }
  const path = join(QA_DIR, description.archivo);
  if (!existsSync(path)) throw new Error(`${path} not found (shared QA set at ${QA_DIR})`);
  const name_ = description.archivo.split('/').pop();
  const type = cerebro.MEDIA_TYPES[cerebro.formatOf(name_)];
  return [{ name: name_, path, mediaType: type, bytes: 0 }];
}

/** Space name of a corpus (each corpus is its own space). */
export const spaceOf = (corpus) => `qa-${corpus}`;

/**
 * A fresh engine (in-memory database) with every corpus of the (filtered) set indexed into its own space through
 * the worker pool, as uploads are. Returns the set too, so callers ask exactly the questions of the corpora indexed.
 */
export async function indexSharedQa(filter = {}) {
  const qa = loadSharedQa(filter);
  const db = openDb();
  const engine = new cerebro.CerebroEngine({ db });
  engine.start();
  const t0 = performance.now();
  for (const corpus of qa.corpora) {
    for (const doc of corpusDocuments(corpus, qa.corpus[corpus])) engine.documents.submit(spaceOf(corpus), doc);
  }
  await engine.documents.idle();
  for (const corpus of qa.corpora) {
    const status = await engine.documents.status(spaceOf(corpus));
    if (status.failed)
      throw new Error(
        `${corpus} failed to index: ${JSON.stringify(status.documents.filter((d) => d.state === 'failed'))}`,
      );
  }
  return { ...qa, db, engine, indexMs: performance.now() - t0 };
}

/** How answers and keys are compared: lower case, citation markers dropped, white space runs made one. */
export const normalise = (text) =>
  text
    .replace(/\s\[\d+\]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ');
/** Whether a text holds EVERY key (the set's rule). */
export const holdsEveryKey = (text, keys) => {
  const t = normalise(text);
  return keys.every((k) => t.includes(normalise(k)));
};
const passageText = (p) => `${p.headings.join('\n')}\n${p.text}`;
export const wordCount = (text) => text.split(/\s+/).filter(Boolean).length;

/**
 * Plain FTS5 BM25 (default unicode61 tokenizer, OR of the question's words) over exactly the passages of each space,
 * one table per space so that IDF is that space's. `top(corpus, question, k)` returns passages.
 */
export function plainBm25(db, corpora) {
  const tables = new Map();
  corpora.forEach((corpus, i) => {
    const passages = spacePassages(db, spaceOf(corpus));
    const table = `bench_plain_${i}`;
    db.exec(`DROP TABLE IF EXISTS ${table}; CREATE VIRTUAL TABLE ${table} USING fts5(body)`);
    const insert = db.prepare(`INSERT INTO ${table} (rowid, body) VALUES (?, ?)`);
    db.transaction(() => {
      for (const p of passages) insert.run(p.id, passageText(p));
    })();
    const query = db.prepare(`SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT ?`).pluck();
    tables.set(corpus, { query, byId: new Map(passages.map((p) => [p.id, p])), count: passages.length });
  });
  const plainWords = (text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return {
    count: (corpus) => tables.get(corpus).count,
    top(corpus, question, k) {
      const t = tables.get(corpus);
      const words = [...new Set(plainWords(question))];
      if (words.length === 0) return [];
      return t.query.all(words.map((w) => `"${w}"`).join(' OR '), k).map((id) => t.byId.get(id));
    },
  };
}

/**
 * Asks the set through `engine`: every question alone, every conversation turn by turn with the earlier turns as
 * history. One record per question or turn (see the fields below). `options` are answer options (e.g. minRelevance);
 * `ask(engine, request)` may replace how a request is answered (default `engine.ask`).
 */
export async function askSharedQa(engine, { db, qa, options = {}, ask = (e, r) => e.ask(r) } = {}) {
  const plain = plainBm25(db, qa.corpora);
  const records = [];
  const judge = async (item, kind, request, extra) => {
    const t0 = performance.now();
    const answer = await ask(engine, { ...request, options });
    const ms = performance.now() - t0;
    const keys = item.claves ?? [];
    const answerable = item.respondible !== false;
    const record = {
      id: extra.id,
      split: extra.split,
      corpus: extra.corpus,
      kind,
      tipo: item.tipo ?? null,
      question: item.pregunta,
      answerable,
      keys,
      found: answer.found,
      correct: answerable && answer.found && holdsEveryKey(answer.text, keys),
      words: answer.found ? wordCount(answer.text) : 0,
      ms: Math.round(ms * 100) / 100,
      text: answer.text,
      sources: answer.sources.map((s) => ({
        passageId: s.passageId,
        document: s.document,
        heading: s.heading,
        score: s.score,
        bm25: s.bm25,
        cited: s.cited,
      })),
    };
    if (answerable && kind === 'pregunta') {
      // Retrieval recall (standalone questions): do the passages the engine draws from (its top RECALL_DEPTH, searched as it searches) hold
      // every key, and do plain BM25's top RECALL_DEPTH? Both over the same passages of the same space.
      const { hits } = await engine.retriever.retrieve(request.space, searchText(request), RECALL_DEPTH);
      const ftsTop = plain.top(extra.corpus, request.question, RECALL_DEPTH);
      record.engineRank = firstRankHolding(hits, keys);
      record.engineRecall = holdsEveryKey(hits.map(passageText).join('\n'), keys);
      record.ftsRank = firstRankHolding(ftsTop, keys);
      record.ftsRecall = holdsEveryKey(ftsTop.map(passageText).join('\n'), keys);
      record.engineTop = hits.map((h) => ({
        id: h.id,
        bm25: Math.round(h.bm25 * 1000) / 1000,
        score: Math.round(h.score * 1000) / 1000,
      }));
    }
    records.push(record);
    return answer;
  };
  for (const q of qa.questions) {
    await judge(q, 'pregunta', { space: spaceOf(q.corpus), question: q.pregunta }, q);
  }
  for (const c of qa.conversations) {
    const history = [];
    for (const [i, turn] of c.turnos.entries()) {
      const request = { space: spaceOf(c.corpus), question: turn.pregunta, history: history.slice(-HISTORY_TURNS) };
      const answer = await judge(turn, 'turno', request, { id: `${c.id}#${i + 1}`, split: c.split, corpus: c.corpus });
      history.push({ role: 'user', content: turn.pregunta }, { role: 'assistant', content: answer.text });
    }
  }
  return records;
}

/** 1-based rank of the first passage holding every key on its own (0: none does). */
const firstRankHolding = (passages, keys) => passages.findIndex((p) => holdsEveryKey(passageText(p), keys)) + 1;

const share = (n, d) => (d ? n / d : null);
/** The figures of a set of records (any subset: a split, a corpus…). */
export function summarise(records) {
  const questions = records.filter((r) => r.kind === 'pregunta');
  const answerable = questions.filter((r) => r.answerable);
  const unanswerable = questions.filter((r) => !r.answerable);
  const claimed = questions.filter((r) => r.found);
  const turns = records.filter((r) => r.kind === 'turno');
  const words = records
    .filter((r) => r.found)
    .map((r) => r.words)
    .sort((a, b) => a - b);
  const recallOf = answerable.filter((r) => r.engineRecall !== undefined);
  return {
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    turns: turns.length,
    answered: share(answerable.filter((r) => r.correct).length, answerable.length),
    declined: share(unanswerable.filter((r) => !r.found).length, unanswerable.length),
    // Precision of claimed answers: of the standalone questions the engine answered, the share answered with every
    // key (an answer to an unanswerable question is always wrong).
    precision: share(claimed.filter((r) => r.correct).length, claimed.length),
    turnsCorrect: share(turns.filter((r) => (r.answerable ? r.correct : !r.found)).length, turns.length),
    medianWords: words.length ? words[Math.floor((words.length - 1) / 2)] : 0,
    engineRecall: share(recallOf.filter((r) => r.engineRecall).length, recallOf.length),
    ftsRecall: share(recallOf.filter((r) => r.ftsRecall).length, recallOf.length),
    ftsOnly: recallOf.filter((r) => r.ftsRecall && !r.engineRecall).length,
    engineOnly: recallOf.filter((r) => r.engineRecall && !r.ftsRecall).length,
  };
}

/** Figures per split, and per split and corpus: `{ dev: { all, corpora: { muebles: … } }, validacion: … }`. */
export function score(records) {
  const out = {};
  for (const split of [...new Set(records.map((r) => r.split))].sort()) {
    const of = records.filter((r) => r.split === split);
    const corpora = {};
    for (const corpus of [...new Set(of.map((r) => r.corpus))].sort())
      corpora[corpus] = summarise(of.filter((r) => r.corpus === corpus));
    out[split] = { all: summarise(of), corpora };
  }
  return out;
}

const pc = (x) => (x === null ? '    -  ' : `${fmt(100 * x, 1)} %`.padStart(7));
/** Prints the figures of `score(records)`, one table per split. */
export function printScore(scored) {
  for (const [split, { all, corpora }] of Object.entries(scored)) {
    console.log(`\n-- split ${split} --`);
    line(
      'corpus            | answered | declined | precision |  turns  | words | recall@5: engine | fts5 bm25 | fts5 only',
    );
    const row = (name, s) =>
      line(
        `${name.padEnd(17)} | ${pc(s.answered)}  | ${pc(s.declined)}  | ${pc(s.precision)}   | ${pc(s.turnsCorrect)} | ${String(s.medianWords).padStart(5)} |`,
        `         ${pc(s.engineRecall)} |   ${pc(s.ftsRecall)} | ${String(s.ftsOnly).padStart(9)}  (${s.answerable}+${s.unanswerable} q, ${s.turns} turns)`,
      );
    for (const [corpus, s] of Object.entries(corpora)) row(corpus, s);
    row('ALL', all);
  }
  line(
    `targets: answered >= ${TARGETS.answered * 100} %, declined >= ${TARGETS.declined * 100} %, precision >= ${TARGETS.precision * 100} %,`,
    `turns >= ${TARGETS.turns * 100} %, median words <= ${TARGETS.medianWords}, engine recall@5 >= fts5 recall@5 on every corpus`,
  );
}

export function writeRecords(records, file = RECORDS_FILE) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(records, null, 1)}\n`);
  return file;
}

/** Indexes, asks, prints and dumps the records: the shared-set part of the answers benchmark. */
export async function runSharedQa() {
  let qa;
  try {
    qa = await indexSharedQa();
  } catch (err) {
    console.error(`shared QA: ${err.message}`);
    return null;
  }
  const records = await askSharedQa(qa.engine, { db: qa.db, qa });
  const passages = qa.corpora.map((c) => `${c} ${spacePassages(qa.db, spaceOf(c)).length}`).join(', ');
  console.log(`\n== Cerebro: shared QA set (${QA_DIR}), scored as its README says, extractive, no model ==`);
  line(
    `passages per space: ${passages}; indexed in ${fmt(qa.indexMs / 1000, 1)} s; ${qa.questions.length} questions, ${qa.conversations.length} conversations`,
  );
  printScore(score(records));
  line(`per-question records: ${writeRecords(records)}`);
  await qa.engine.stop();
  qa.db.close();
  return records;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const records = await runSharedQa();
  process.exit(records ? 0 : 1);
}
