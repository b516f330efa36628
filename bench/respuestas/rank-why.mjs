#!/usr/bin/env node
// Why a passage ranks where it does (run after `tsc -b`): for the labelled questions given by id (or every dev
// question of a corpus with `--corpus <name>`), the engine's analysed words, its top passages with their BM25 and
// the question words each holds, the first passage holding the keys (300 deep) likewise, and plain FTS5's top 5.
// CEREBRO_SETS_CACHE=<file> reuses an indexed database (labelled-sets.mjs). Tune only on `dev`.
import { spacePassages } from '../support/cerebro-corpus.mjs';
import { holdsKeys, indexedSets, labelledQuestions } from './labelled-sets.mjs';

const dist = new URL('../../host/dist/cerebro/', import.meta.url);
const { searchText } = await import(new URL('answer/extractive.js', dist).href);
const { groupFrequencies } = await import(new URL('index/space-bm25.js', dist).href);
const args = process.argv.slice(2);
const corpusArg = args.includes('--corpus') ? args[args.indexOf('--corpus') + 1] : null;
const ids = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--corpus');
const shown = Number(process.env.SHOW ?? 8);
const { db, engine } = await indexedSets();
const questions = labelledQuestions().filter(
  (q) =>
    q.answerable &&
    q.turn === null &&
    (ids.includes(q.id) || (corpusArg && q.corpus === corpusArg && q.split === 'dev')),
);
const body = (p) => `${p.headings.join(' ')} ${p.text}`;
const plainTables = new Map();
function plainTop(corpus, question) {
  let t = plainTables.get(corpus);
  if (!t) {
    const passages = spacePassages(db, corpus);
    const table = `why_plain_${plainTables.size}`;
    db.exec(`DROP TABLE IF EXISTS ${table}; CREATE VIRTUAL TABLE ${table} USING fts5(body)`);
    const insert = db.prepare(`INSERT INTO ${table} (rowid, body) VALUES (?, ?)`);
    db.transaction(() => {
      for (const p of passages) insert.run(p.id, `${p.headings.join('\n')}\n${p.text}`);
    })();
    t = {
      top: db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT 5`).pluck(),
      byId: new Map(passages.map((p) => [p.id, p])),
    };
    plainTables.set(corpus, t);
  }
  const words = [...new Set(question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  return words.length ? t.top.all(words.map((w) => `"${w}"`).join(' OR ')).map((id) => t.byId.get(id)) : [];
}
for (const q of questions) {
  const search = searchText({ space: q.corpus, question: q.question });
  const { hits, groups, languages } = await engine.retriever.retrieve(q.corpus, search, 300);
  const words = (p) =>
    groupFrequencies(body(p), groups, languages)
      .map((n, g) => (n ? `${groups[g][0]}×${n}` : null))
      .filter(Boolean)
      .join(' ');
  const keyRank = hits.findIndex((h) => holdsKeys(body(h), q)) + 1;
  console.log(
    `\n${q.id} ${q.question}\n  keys ${q.keys.join(' | ')}; search "${search}"; groups ${JSON.stringify(groups)}`,
  );
  for (const h of hits.slice(0, shown))
    console.log(
      `  ${String(h.rank).padStart(3)} ${h.bm25.toFixed(3)} ${holdsKeys(body(h), q) ? 'KEY ' : '    '}[${words(h)}] ${h.headings.slice(-2).join(' › ').slice(0, 70)} | ${h.text.slice(0, 70).replace(/\s+/g, ' ')}`,
    );
  if (keyRank > shown) {
    const h = hits[keyRank - 1];
    console.log(
      `  ${String(keyRank).padStart(3)} ${h.bm25.toFixed(3)} KEY [${words(h)}] ${h.headings.slice(-2).join(' › ')} | len ${h.text.length}`,
    );
  } else if (keyRank === 0) console.log(`  keys in none of ${hits.length}`);
  const fts = plainTop(q.corpus, q.question);
  console.log(
    `  fts5: ${fts.map((p) => `${p.id}${holdsKeys(body(p), q) ? '(KEY)' : ''}`).join(' ')}; engine ids: ${hits
      .slice(0, 5)
      .map((h) => h.id)
      .join(' ')}`,
  );
}
await engine.stop();
db.close();
