#!/usr/bin/env node
// Calibrates answer-or-decline on the labelled question set (`npm run calibrate`). For every question it records the
// relevance the engine compares with `minRelevance` (the best score among its retrieved passages) and, for every
// candidate threshold up to that score, whether the answer given at that threshold holds a key. It writes the table
// to bench/respuestas/scores.json, picks the threshold that answers the most questions correctly while declining
// >= 90 % of the unanswerable ones, and sets DEFAULT_ANSWER_OPTIONS.minRelevance (host/src/cerebro/answer/types.ts)
// to it. Re-run it whenever how relevance is computed changes; then rebuild and commit both files.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cerebro } from '../support/cerebro-corpus.mjs';
import { ANSWERABLE, SPACE, UNANSWERABLE, holdsKey, indexedEngine } from './question-set.mjs';

const dist = new URL('../../host/dist/cerebro/', import.meta.url);
const { scorePassages, searchText } = await import(new URL('answer/extractive.js', dist).href);
const { CANDIDATE_THRESHOLDS, pickThreshold } = await import(new URL('calibration/pick-threshold.js', dist).href);
const DEFAULTS_FILE = fileURLToPath(new URL('../../host/src/cerebro/answer/types.ts', import.meta.url));
const SCORES_FILE = fileURLToPath(new URL('scores.json', import.meta.url));

const { db, engine } = await indexedEngine();
const { passages } = cerebro.DEFAULT_ANSWER_OPTIONS;
const questions = [];
for (const q of [...ANSWERABLE, ...UNANSWERABLE]) {
  // Searched as the engine searches (question-form words left out), so the recorded relevance is the one it gates on.
  const retrieval = await engine.retriever.retrieve(SPACE, searchText({ space: SPACE, question: q.pregunta }), passages);
  const { scored } = scorePassages(engine.index, retrieval.groups, retrieval.hits, retrieval);
  const relevance = Math.round(Math.max(0, ...scored.map((s) => s.score)) * 10_000) / 10_000;
  const correctAt = {};
  if (q.claves) {
    for (const t of CANDIDATE_THRESHOLDS.filter((t) => t <= relevance)) {
      const answer = await engine.ask({ space: SPACE, question: q.pregunta, options: { minRelevance: t } });
      correctAt[t.toFixed(2)] = answer.found && holdsKey(answer.text, q.claves);
    }
  }
  questions.push({ question: q.pregunta, answerable: Boolean(q.claves), relevance, correctAt });
}
await engine.stop();
db.close();

const choice = pickThreshold(questions, CANDIDATE_THRESHOLDS);
if (!choice) {
  console.error('calibrate: no candidate threshold declines 90 % of the unanswerable questions; nothing written.');
  process.exit(1);
}
writeFileSync(SCORES_FILE, `${JSON.stringify({ threshold: choice.threshold, correct: choice.correct, declined: choice.declined, questions }, null, 1)}\n`);

const source = readFileSync(DEFAULTS_FILE, 'utf8');
const pattern = /(\n\s*minRelevance: )[\d.]+(,)/;
if (!pattern.test(source)) {
  console.error(`calibrate: minRelevance default not found in ${DEFAULTS_FILE}; set it to ${choice.threshold} by hand.`);
  process.exit(1);
}
writeFileSync(DEFAULTS_FILE, source.replace(pattern, `$1${choice.threshold}$2`));

const answerable = questions.filter((q) => q.answerable).length;
console.log(`minRelevance = ${choice.threshold}: ${choice.correct}/${answerable} answerable questions answered with a key,`,
  `${(100 * choice.declined).toFixed(1)} % of ${questions.length - answerable} unanswerable declined`);
console.log('threshold  correct  declined');
const unanswerable = questions.filter((q) => !q.answerable);
for (const t of CANDIDATE_THRESHOLDS) {
  const correct = questions.filter((q) => q.answerable && q.correctAt[t.toFixed(2)] === true).length;
  const declined = unanswerable.filter((q) => q.relevance < t).length / unanswerable.length;
  console.log(`${t.toFixed(2).padStart(9)}  ${String(correct).padStart(7)}  ${(100 * declined).toFixed(1).padStart(7)} %`);
}
console.log(`wrote ${SCORES_FILE} and ${DEFAULTS_FILE}; rebuild (npx tsc -b) and commit both.`);
