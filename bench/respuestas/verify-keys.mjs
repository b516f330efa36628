#!/usr/bin/env node
// Checks the labelled set against the documents as the engine indexed them: every answerable question has at least
// one key found in some passage (keys not found are listed), and no unanswerable question's `ausente` text occurs.
// Run after `npx tsc -b`: node bench/respuestas/verify-keys.mjs
import { spacePassages } from '../support/cerebro-corpus.mjs';
import { ANSWERABLE, SPACE, UNANSWERABLE, indexedEngine, normalise } from './question-set.mjs';

const { db, engine } = await indexedEngine();
const corpus = spacePassages(db, SPACE)
  .map((p) => normalise(`${p.headings.join(' ')} ${p.text}`))
  .join('\n');
let problems = 0;
for (const q of ANSWERABLE) {
  const missing = q.claves.filter((k) => !corpus.includes(normalise(k)));
  if (missing.length === q.claves.length) {
    problems++;
    console.log(`NO KEY FOUND  ${q.pregunta}  ${JSON.stringify(q.claves)}`);
  } else if (missing.length)
    console.log(`(keys not in the documents, dropped?)  ${q.pregunta}  ${JSON.stringify(missing)}`);
}
for (const q of UNANSWERABLE) {
  if (corpus.includes(normalise(q.ausente))) {
    problems++;
    console.log(`PRESENT  ${q.pregunta}  "${q.ausente}" occurs in the documents`);
  }
}
console.log(`${ANSWERABLE.length} answerable, ${UNANSWERABLE.length} unanswerable, ${problems} problems`);
await engine.stop();
db.close();
process.exit(problems ? 1 : 0);
