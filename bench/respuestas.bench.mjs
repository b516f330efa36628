#!/usr/bin/env node
// Answers benchmark (run after `tsc -b`). First the shared QA set (../shared/qa: five corpora, dev and validacion
// splits, conversations; see bench/respuestas/shared-qa.mjs), scored as its README says beside plain FTS5 BM25.
// CEREBRO_QA_SPLIT / CEREBRO_QA_CORPUS / CEREBRO_QA_ONLY=1 run only (part of) that set, quickly. Then the project's
// own questions as people ask them (bench/respuestas/preguntas.json, 90+ with the
// key strings a correct answer holds, 25+ the documents cannot answer) over two Spanish Debian documentation packages
// (debian-reference-es, freedombox-doc-es) indexed through the real engine. Printed beside a same-run baseline
// (plain SQLite FTS5 BM25 over the same passages, answer = the best sentence of the top passage) and the targets;
// then question latency with these questions in a 50,000-passage space.
import {
  buildLatencySpace,
  cerebro,
  fmt,
  line,
  measureLatency,
  printLatency,
  spacePassages,
} from './support/cerebro-corpus.mjs';
import {
  ANSWERABLE,
  SPACE,
  UNANSWERABLE,
  askAll,
  holdsKey,
  indexedEngine,
  summarise,
} from './respuestas/question-set.mjs';
import { RECALL_DEPTH, runSharedQa } from './respuestas/shared-qa.mjs';

const shared = await runSharedQa();
if (process.env.CEREBRO_QA_ONLY || process.env.CEREBRO_QA_SPLIT || process.env.CEREBRO_QA_CORPUS)
  process.exit(shared ? 0 : 1);

const TARGETS = { keyInAnswer: 0.75, declined: 0.9, medianWords: 60 };

const { db, engine, indexMs } = await indexedEngine();
const passages = spacePassages(db, SPACE);
const records = await askAll(engine, db);
const ours = summarise(records);

// Baseline: the default FTS5 tokenizer (unicode61) over the same passages with their heading path, OR of the words.
db.exec('CREATE VIRTUAL TABLE bench_plain USING fts5(body)');
const insert = db.prepare('INSERT INTO bench_plain (rowid, body) VALUES (?, ?)');
db.transaction(() => {
  for (const p of passages) insert.run(p.id, `${p.headings.join('\n')}\n${p.text}`);
})();
const top = db.prepare('SELECT rowid AS id FROM bench_plain WHERE bench_plain MATCH ? ORDER BY rank LIMIT ?').pluck();
const byId = new Map(passages.map((p) => [p.id, p]));
const plainWords = (text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
function baselineAnswer(question) {
  const words = [...new Set(plainWords(question))];
  const id = words.length ? top.get(words.map((w) => `"${w}"`).join(' OR '), 1) : undefined;
  if (id === undefined) return null;
  const passage = byId.get(id);
  const wanted = new Set(words);
  let best = '';
  let bestScore = -1;
  for (const sentence of passage.text.split('\n').flatMap((para) => cerebro.splitSentences(para))) {
    const score = new Set(plainWords(sentence).filter((w) => wanted.has(w))).size;
    if (score > bestScore) {
      best = sentence;
      bestScore = score;
    }
  }
  return { text: best, passage };
}
const baselineRecords = [...ANSWERABLE, ...UNANSWERABLE].map((q) => {
  const a = baselineAnswer(q.pregunta);
  const keys = q.claves ?? null;
  return {
    answerable: keys !== null,
    found: a !== null,
    words: a ? a.text.split(/\s+/).filter(Boolean).length : 0,
    correct: keys !== null && a !== null && holdsKey(a.text, keys),
    sourced: keys !== null && a !== null && holdsKey(`${a.passage.headings.join(' ')} ${a.passage.text}`, keys),
  };
});
const baseline = summarise(baselineRecords);

// Retrieval recall at the depth an answer reads: a key in the engine's top passages (searched as it searches) against
// a key in plain BM25's top passages, over the same passages.
const { searchText } = await import(new URL('../host/dist/cerebro/answer/extractive.js', import.meta.url).href);
const passageBody = (p) => `${p.headings.join(' ')} ${p.text}`;
let engineRecall = 0;
let plainRecall = 0;
for (const q of ANSWERABLE) {
  const { hits } = await engine.retriever.retrieve(
    SPACE,
    searchText({ space: SPACE, question: q.pregunta }),
    RECALL_DEPTH,
  );
  if (hits.some((h) => holdsKey(passageBody(h), q.claves))) engineRecall++;
  const words = [...new Set(plainWords(q.pregunta))];
  const ids = words.length ? top.all(words.map((w) => `"${w}"`).join(' OR '), RECALL_DEPTH) : [];
  if (ids.some((id) => holdsKey(passageBody(byId.get(id)), q.claves))) plainRecall++;
}

const pc = (x) => `${fmt(100 * x, 1)} %`.padStart(8);
const verdict = (ok) => (ok ? 'met' : 'NOT met');
console.log('\n== Cerebro: answers to questions as people ask them (debian-reference-es + freedombox-doc-es) ==');
line(
  `corpus: ${passages.length} passages, indexed in ${fmt(indexMs / 1000, 1)} s; ${ANSWERABLE.length} answerable questions, ${UNANSWERABLE.length} unanswerable`,
);
line('figure                                  |  engine  | fts5 bm25 | target');
line(
  `answerable: answer holds a key          | ${pc(ours.keyInAnswer)} | ${pc(baseline.keyInAnswer)}  | >= ${TARGETS.keyInAnswer * 100} % (${verdict(ours.keyInAnswer >= TARGETS.keyInAnswer)})`,
);
line(`answerable: a source passage holds a key| ${pc(ours.keyInSources)} | ${pc(baseline.keyInSources)}  |`);
line(
  `${`answerable: a key in the top ${RECALL_DEPTH} passages`.padEnd(40)}| ${pc(engineRecall / ANSWERABLE.length)} | ${pc(plainRecall / ANSWERABLE.length)}  | engine >= fts5 (${verdict(engineRecall >= plainRecall)})`,
);
line(
  `unanswerable: declined                  | ${pc(ours.declined)} | ${pc(baseline.declined)}  | >= ${TARGETS.declined * 100} % (${verdict(ours.declined >= TARGETS.declined)})`,
);
line(
  `median words per answer                 | ${String(ours.medianWords).padStart(8)} | ${String(baseline.medianWords).padStart(8)}  | <= ${TARGETS.medianWords} (${verdict(ours.medianWords <= TARGETS.medianWords)})`,
);
const kinds = [...new Set(ANSWERABLE.map((q) => q.tipo))];
line(
  'answer holds a key, by kind:',
  kinds
    .map((k) => {
      const of = records.filter((r) => r.kind === k);
      return `${k} ${of.filter((r) => r.correct).length}/${of.length}`;
    })
    .join(', '),
);
if (process.env.CEREBRO_BENCH_VERBOSE) {
  for (const r of records)
    if (r.answerable ? !r.correct : r.found)
      console.log(
        `  ${r.answerable ? 'miss' : 'answered'}: ${r.question} -> ${r.text.slice(0, 160).replace(/\n/g, ' ')}`,
      );
}
await engine.stop();

// Latency: these questions (as asked, and lower-cased without accents as people type them) in a 50,000-passage space.
const latencySpace = await buildLatencySpace(passages.map((p) => ({ text: p.text, headings: p.headings })));
const casual = (q) =>
  q
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');
const latencyQuestions = [...ANSWERABLE, ...UNANSWERABLE].flatMap((q) => [q.pregunta, casual(q.pregunta)]);
printLatency(latencySpace, latencyQuestions.length, await measureLatency(latencySpace, latencyQuestions));
// The same questions in CPU time (user + system of this process), which a machine shared with other work inflates far
// less than wall time: what the engine itself costs per question.
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const cpu = { ask: [], search: [] };
for (const q of latencyQuestions) {
  let t = cpuMs();
  await latencySpace.index.search('grande', q, 5);
  cpu.search.push(cpuMs() - t);
  t = cpuMs();
  await latencySpace.engine.ask({ space: 'grande', question: q });
  cpu.ask.push(cpuMs() - t);
}
const at = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
line(
  `CPU time per question: retrieval p50 ${fmt(at(cpu.search, 50), 2)} ms p99 ${fmt(at(cpu.search, 99), 2)} ms; full answer p50 ${fmt(at(cpu.ask, 50), 2)} ms p99 ${fmt(at(cpu.ask, 99), 2)} ms`,
);
latencySpace.db.close();
db.close();
