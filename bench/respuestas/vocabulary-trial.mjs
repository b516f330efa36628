#!/usr/bin/env node
// Trial of two ways to narrow vocabulary gaps without a model, measured on the labelled questions (run after
// `npx tsc -b`): node bench/respuestas/vocabulary-trial.mjs
//  - thesaurus: each question word also matches the single-word synonyms Debian's mythes-es lists for it
//    (/usr/share/mythes/th_es_ES_v2.dat, matched by Spanish stem);
//  - feedback: pseudo-relevance feedback, the question plus the 3 terms that weigh most (tf x idf) in its top 3
//    passages, retrieved again; relevance is still judged on the question's own words.
// Each variant replaces the engine's retrieval for the run only, and the figures are printed beside the engine's as
// it is. Neither is in the engine: see the README for the figures that decided it.
import { cerebro } from '../support/cerebro-corpus.mjs';
import { THESAURUS, loadThesaurus } from './thesaurus.mjs';
import { askAll, indexedEngine, summarise } from './question-set.mjs';

const { db, engine } = await indexedEngine();
const original = engine.retriever.retrieve.bind(engine.retriever);
const figures = [['engine as it is', summarise(await askAll(engine, db))]];

const thesaurus = loadThesaurus();
if (thesaurus) {
  engine.retriever.retrieve = async (space, question, k) => {
    const { groups } = await original(space, question, k);
    const expanded = groups.map((alts) => [...new Set([...alts, ...[...(thesaurus.get(alts[0]) ?? [])].slice(0, 8)])]);
    return { hits: await engine.index.searchGroups(space, expanded, k), groups: expanded, mode: 'bm25' };
  };
  figures.push(['+ mythes-es synonyms', summarise(await askAll(engine, db))]);
} else {
  console.log(`thesaurus: ${THESAURUS} not found (Debian package mythes-es); not measured`);
}

engine.retriever.retrieve = async (space, question, k) => {
  const first = await original(space, question, k);
  const own = new Set(first.groups.flat());
  const tf = new Map();
  for (const hit of first.hits.slice(0, 3)) {
    for (const t of cerebro.indexTerms(hit.text, 'es'))
      if (t && !own.has(t) && !/^\d+$/.test(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
  }
  const candidates = [...tf.keys()].map((t) => [t]);
  const idf = await engine.index.idf(candidates);
  const feedback = candidates
    .map((g, i) => ({ t: g[0], w: tf.get(g[0]) * idf[i] }))
    .sort((a, b) => b.w - a.w)
    .slice(0, 3)
    .map((x) => [x.t]);
  return {
    hits: await engine.index.searchGroups(space, [...first.groups, ...feedback], k),
    groups: first.groups,
    mode: 'bm25',
  };
};
figures.push(['+ pseudo-relevance feedback', summarise(await askAll(engine, db))]);
engine.retriever.retrieve = original;

console.log('\n== Vocabulary gaps: variants on the labelled questions ==');
console.log('variant                       | key in answer | key in sources | unanswerable declined | median words');
for (const [label, f] of figures) {
  const pc = (x) => `${(100 * x).toFixed(1)} %`;
  console.log(
    `${label.padEnd(30)}| ${pc(f.keyInAnswer).padStart(13)} | ${pc(f.keyInSources).padStart(14)} | ${pc(f.declined).padStart(21)} | ${f.medianWords}`,
  );
}
await engine.stop();
db.close();
