#!/usr/bin/env node
// The vocabulary trial (vocabulary-trial.mjs) on the shared QA set, per split (run after `npx tsc -b`):
// `node bench/respuestas/vocabulary-shared.mjs`. Variants of retrieval, each for the run only:
//  - thesaurus (search): each question word also searches the single-word synonyms Debian's mythes-es lists for it,
//    the passages are still judged on the question's own words;
//  - thesaurus (search + judge): the synonyms also count as the question's words when passages are judged.
//  - pseudo-relevance feedback: the question plus the 3 weightiest terms of its first 3 passages, searched again.
// Printed beside the engine as it is, in the same run. CEREBRO_QA_SPLIT / CEREBRO_QA_CORPUS filter as in shared-qa.mjs.
import { cerebro } from '../support/cerebro-corpus.mjs';
import { THESAURUS, loadThesaurus } from './thesaurus.mjs';
import { askSharedQa, indexSharedQa, printScore, score } from './shared-qa.mjs';

/** Synonyms taken per word (the thesaurus lists the closest first). */
const MAX_SYNONYMS = Number(process.env.SYNONYMS ?? 6);

const qa = await indexSharedQa();
const retriever = qa.engine.retriever;
const original = retriever.retrieve.bind(retriever);
const runs = [['engine as it is', await askSharedQa(qa.engine, { db: qa.db, qa })]];
const thesaurus = loadThesaurus();
if (!thesaurus) console.log(`thesaurus: ${THESAURUS} not found (Debian package mythes-es); not measured`);
else {
  const expand = (groups) =>
    groups.map((alts) => [...new Set([...alts, ...(thesaurus.get(alts[0]) ?? []).slice(0, MAX_SYNONYMS)])]);
  for (const judged of [false, true]) {
    retriever.retrieve = async (space, question, k) => {
      const first = await original(space, question, k);
      const expanded = expand(first.groups);
      const hits = await qa.engine.index.searchGroups(space, expanded, k);
      return { ...first, hits, groups: judged ? expanded : first.groups };
    };
    runs.push([
      `+ mythes-es synonyms (${judged ? 'search + judge' : 'search'})`,
      await askSharedQa(qa.engine, { db: qa.db, qa }),
    ]);
  }
  retriever.retrieve = original;
}
// Pseudo-relevance feedback: the question plus the FEEDBACK_TERMS terms weighing most (tf x idf) in its first
// FEEDBACK_PASSAGES passages, searched again; passages are still judged on the question's own words.
const FEEDBACK_TERMS = 3;
const FEEDBACK_PASSAGES = 3;
if (!process.env.CEREBRO_VOCAB_NO_FEEDBACK) {
  retriever.retrieve = async (space, question, k) => {
    const first = await original(space, question, k);
    const own = new Set(first.groups.flat());
    const tf = new Map();
    for (const hit of first.hits.slice(0, FEEDBACK_PASSAGES))
      for (const t of cerebro.indexTerms(hit.text, 'es'))
        if (t && !own.has(t) && !/^\d+$/.test(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
    const candidates = [...tf.keys()].map((t) => [t]);
    const idf = await qa.engine.index.idf(candidates, space);
    const feedback = candidates
      .map((g, i) => ({ g, w: tf.get(g[0]) * idf[i] }))
      .sort((a, b) => b.w - a.w)
      .slice(0, FEEDBACK_TERMS)
      .map((x) => x.g);
    return { ...first, hits: await qa.engine.index.searchGroups(space, [...first.groups, ...feedback], k) };
  };
  runs.push(['+ pseudo-relevance feedback (search)', await askSharedQa(qa.engine, { db: qa.db, qa })]);
  retriever.retrieve = original;
}
for (const [label, records] of runs) {
  console.log(`\n==== ${label}`);
  printScore(score(records));
}
await qa.engine.stop();
qa.db.close();
