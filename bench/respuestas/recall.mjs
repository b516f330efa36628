#!/usr/bin/env node
// Retrieval recall alone, quickly (run after `tsc -b`): for every standalone answerable question of the labelled sets
// (the shared QA set, both splits, and the project's own set; labelled-sets.mjs), whether the engine's top 5
// passages, searched as it searches, hold the keys, beside plain FTS5 BM25's top 5 over the same passages (default
// unicode61 tokenizer, OR of the question's words, one table per space so IDF is the space's). Per split and corpus;
// `--list` names the questions only FTS5 finds, with the rank of the first engine passage holding the keys 300 deep
// (a ranking miss when found, a candidate miss when not). Also counts exact ties of the first two scores.
// CEREBRO_SETS_CACHE=<file> reuses an indexed database (labelled-sets.mjs). Tune only on `dev`.
import { spacePassages } from '../support/cerebro-corpus.mjs';
import { holdsKeys, indexedSets, labelledQuestions } from './labelled-sets.mjs';

const DEPTH = 5;
const DEEP = 300;
const dist = new URL('../../host/dist/cerebro/', import.meta.url);
const { searchText } = await import(new URL('answer/extractive.js', dist).href);
const { db, engine } = await indexedSets();
const questions = labelledQuestions().filter((q) => q.answerable && q.turn === null);
const tables = new Map();
[...new Set(questions.map((q) => q.corpus))].forEach((corpus, i) => {
  const passages = spacePassages(db, corpus);
  const table = `recall_plain_${i}`;
  db.exec(`DROP TABLE IF EXISTS ${table}; CREATE VIRTUAL TABLE ${table} USING fts5(body)`);
  const insert = db.prepare(`INSERT INTO ${table} (rowid, body) VALUES (?, ?)`);
  db.transaction(() => {
    for (const p of passages) insert.run(p.id, `${p.headings.join('\n')}\n${p.text}`);
  })();
  tables.set(corpus, {
    top: db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT ${DEPTH}`).pluck(),
    byId: new Map(passages.map((p) => [p.id, p])),
  });
});
const plainWords = (text) => [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
const body = (p) => `${p.headings.join(' ')} ${p.text}`;
const tally = {};
const listed = [];
let ties = 0;
let lists = 0;
for (const q of questions) {
  const key = `${q.split}/${q.corpus}`;
  const t = (tally[key] ??= { n: 0, engine: 0, fts: 0, ftsOnly: 0, engineOnly: 0 });
  const search = searchText({ space: q.corpus, question: q.question });
  const { hits } = await engine.retriever.retrieve(q.corpus, search, DEPTH);
  if (hits.length > 1) {
    lists++;
    if (hits[0].bm25 === hits[1].bm25) ties++;
  }
  const byEngine = hits.some((h) => holdsKeys(body(h), q));
  const plain = tables.get(q.corpus);
  const words = plainWords(q.question);
  const byFts = words.length
    ? plain.top.all(words.map((w) => `"${w}"`).join(' OR ')).some((id) => holdsKeys(body(plain.byId.get(id)), q))
    : false;
  t.n++;
  if (byEngine) t.engine++;
  if (byFts) t.fts++;
  if (byEngine && !byFts) t.engineOnly++;
  if (byFts && !byEngine) {
    t.ftsOnly++;
    const deep = (await engine.retriever.retrieve(q.corpus, search, DEEP)).hits;
    const rank = deep.findIndex((h) => holdsKeys(body(h), q)) + 1;
    listed.push(
      `  ${key} ${q.id}: engine's first passage with the keys at ${rank || `none of ${deep.length}`}: ${q.question}`,
    );
  }
}
for (const [key, t] of Object.entries(tally).sort())
  console.log(
    `${key.padEnd(28)} engine ${t.engine}/${t.n}  fts5 ${t.fts}/${t.n}  fts5 only ${t.ftsOnly}  engine only ${t.engineOnly}${t.engine < t.fts ? '  (below fts5)' : ''}`,
  );
console.log(`first two passages with the same score: ${ties} of ${lists} lists`);
if (process.argv.includes('--list')) console.log(listed.join('\n'));
await engine.stop();
db.close();
