#!/usr/bin/env node
// The vocabulary trial (vocabulary-trial.mjs) on the shared QA set, per split (run after `npx tsc -b`):
// `node bench/respuestas/vocabulary-shared.mjs`. Variants of retrieval, each for the run only:
//  - thesaurus (search): each question word also searches the single-word synonyms Debian's mythes-es lists for it,
//    the passages are still judged on the question's own words;
//  - thesaurus (search + judge): the synonyms also count as the question's words when passages are judged.
// Printed beside the engine as it is, in the same run. CEREBRO_QA_SPLIT / CEREBRO_QA_CORPUS filter as in shared-qa.mjs.
import { existsSync, readFileSync } from 'node:fs';
import { cerebro } from '../support/cerebro-corpus.mjs';
import { askSharedQa, indexSharedQa, printScore, score } from './shared-qa.mjs';

const THESAURUS = '/usr/share/mythes/th_es_ES_v2.dat';
/** Synonyms taken per word (the thesaurus lists the closest first). */
const MAX_SYNONYMS = Number(process.env.SYNONYMS ?? 6);
const { termOf, words } = cerebro;

function loadThesaurus() {
  if (!existsSync(THESAURUS)) return null;
  const lines = new TextDecoder('latin1').decode(readFileSync(THESAURUS)).split('\n');
  const synonyms = new Map();
  for (let i = 1; i < lines.length; i++) {
    const [head, count] = lines[i].split('|');
    const n = Number(count);
    if (!head || !Number.isInteger(n)) continue;
    const own = words(head);
    const stems = [];
    for (let j = 1; j <= n; j++) {
      for (const s of (lines[i + j] ?? '').split('|').slice(1)) {
        const w = words(s);
        if (w.length === 1) stems.push(termOf(w[0], 'es'));
      }
    }
    i += n;
    if (own.length !== 1) continue;
    const key = termOf(own[0], 'es');
    const known = synonyms.get(key) ?? [];
    for (const s of stems) if (s !== key && !known.includes(s)) known.push(s);
    synonyms.set(key, known);
  }
  return synonyms;
}

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
      const hits = qa.engine.index.searchGroups(space, expanded, k);
      return { ...first, hits, groups: judged ? expanded : first.groups };
    };
    runs.push([
      `+ mythes-es synonyms (${judged ? 'search + judge' : 'search'})`,
      await askSharedQa(qa.engine, { db: qa.db, qa }),
    ]);
  }
  retriever.retrieve = original;
}
for (const [label, records] of runs) {
  console.log(`\n==== ${label}`);
  printScore(score(records));
}
await qa.engine.stop();
qa.db.close();
