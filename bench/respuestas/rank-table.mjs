#!/usr/bin/env node
// Per question, the rank of the first passage holding the keys in the engine's list and in plain FTS5 BM25's
// (300 deep; 0 = none), for one corpus and split: `node bench/respuestas/rank-table.mjs <corpus> [split]`. Shows where
// the depth-5 cut falls for each, so a change can be judged by how it moves every rank, not one question's.
// CEREBRO_SETS_CACHE=<file> reuses an indexed database (labelled-sets.mjs). Tune only on `dev`.
import { spacePassages } from '../support/cerebro-corpus.mjs';
import { holdsKeys, indexedSets, labelledQuestions } from './labelled-sets.mjs';

const DEEP = 300;
const dist = new URL('../../host/dist/cerebro/', import.meta.url);
const { searchText } = await import(new URL('answer/extractive.js', dist).href);
const [corpus, split = 'dev'] = process.argv.slice(2);
const { db, engine } = await indexedSets();
const passages = spacePassages(db, corpus);
db.exec('DROP TABLE IF EXISTS rank_plain; CREATE VIRTUAL TABLE rank_plain USING fts5(body)');
const insert = db.prepare('INSERT INTO rank_plain (rowid, body) VALUES (?, ?)');
db.transaction(() => {
  for (const p of passages) insert.run(p.id, `${p.headings.join('\n')}\n${p.text}`);
})();
const top = db.prepare(`SELECT rowid FROM rank_plain WHERE rank_plain MATCH ? ORDER BY rank LIMIT ${DEEP}`).pluck();
const byId = new Map(passages.map((p) => [p.id, p]));
const body = (p) => `${p.headings.join(' ')} ${p.text}`;
const questions = labelledQuestions().filter(
  (q) => q.answerable && q.turn === null && q.corpus === corpus && q.split === split,
);
const rows = [];
for (const q of questions) {
  const { hits } = await engine.retriever.retrieve(corpus, searchText({ space: corpus, question: q.question }), DEEP);
  const e = hits.findIndex((h) => holdsKeys(body(h), q)) + 1;
  const words = [...new Set(q.question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  const f = words.length
    ? top.all(words.map((w) => `"${w}"`).join(' OR ')).findIndex((id) => holdsKeys(body(byId.get(id)), q)) + 1
    : 0;
  rows.push({ q, e, f });
}
const in5 = (r) => r > 0 && r <= 5;
for (const { q, e, f } of rows)
  console.log(
    `${q.id.padEnd(10)} engine ${String(e || '-').padStart(3)} fts5 ${String(f || '-').padStart(3)} ${in5(e) === in5(f) ? '  ' : in5(e) ? 'E+' : 'F+'} ${q.question.slice(0, 90)}`,
  );
console.log(
  `in top 5: engine ${rows.filter((r) => in5(r.e)).length}, fts5 ${rows.filter((r) => in5(r.f)).length} of ${rows.length}`,
);
await engine.stop();
db.close();
