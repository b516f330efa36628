#!/usr/bin/env node
// Trial (run after `npx tsc -b`): Debian's Spanish thesaurus (mythes-es) used only for the question's words that no
// passage of the space holds, the case where a paraphrase leaves the question with nothing to match. Such a word
// also searches, and counts as, its single-word synonyms that the space does hold (at most SYNONYMS per word).
// Printed beside the engine as it is, in the same run, per split. CEREBRO_QA_SPLIT / CEREBRO_QA_CORPUS filter as in
// shared-qa.mjs.
import { loadThesaurus, THESAURUS } from './thesaurus.mjs';
import { askSharedQa, indexSharedQa, printScore, score } from './shared-qa.mjs';

const MAX_SYNONYMS = Number(process.env.SYNONYMS ?? 4);
const qa = await indexSharedQa();
const thesaurus = loadThesaurus();
if (!thesaurus) {
  console.log(`${THESAURUS} not found (Debian package mythes-es)`);
  process.exit(1);
}
const retriever = qa.engine.retriever;
const index = qa.engine.index;
const original = retriever.retrieve.bind(retriever);
const runs = [['engine as it is', await askSharedQa(qa.engine, { db: qa.db, qa })]];
const held = (space, terms) => index.searchGroups(space, [terms], 1).length > 0;
let expanded = 0;
retriever.retrieve = async (space, question, k, ...rest) => {
  const first = await original(space, question, k, ...rest);
  let changed = false;
  const groups = first.groups.map((alts) => {
    if (held(space, alts)) return alts;
    const synonyms = [...new Set(alts.flatMap((t) => thesaurus.get(t) ?? []))].filter((s) => held(space, [s]));
    if (synonyms.length === 0) return alts;
    changed = true;
    return [...alts, ...synonyms.slice(0, MAX_SYNONYMS)];
  });
  if (!changed) return first;
  expanded++;
  return { ...first, groups, hits: index.searchGroups(space, groups, k) };
};
runs.push([
  `+ mythes-es synonyms of words the space lacks (${MAX_SYNONYMS} per word)`,
  await askSharedQa(qa.engine, { db: qa.db, qa }),
]);
retriever.retrieve = original;
console.log(`questions with an expanded word: ${expanded}`);
for (const [label, records] of runs) {
  console.log(`\n==== ${label}`);
  printScore(score(records));
}
await qa.engine.stop();
qa.db.close();
