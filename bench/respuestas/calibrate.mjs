#!/usr/bin/env node
// Trains answer-or-decline (`npm run calibrate`): the logistic decision model over the features of each retrieved
// passage (host/src/cerebro/answer/decision-features.ts) and its probability threshold.
//
// Data: the `dev` split of the shared QA set (../shared/qa) and the project's own set (preguntas.json), each corpus
// in a space of its own (labelled-sets.mjs). A passage is labelled 1 when it holds the question's keys (an
// unanswerable question's passages are all 0). The threshold is chosen by leave-one-corpus-out cross-validation: for
// each corpus, a model trained on the others judges its questions, the answers the engine would give at every
// candidate threshold are composed and checked for their keys, and `pickThreshold` takes the threshold that answers
// most questions correctly net of wrong answers while declining >= 90 % of the held-out unanswerable ones of each
// labelled set on its own (the shared set, the project's own: pooled, the project's easier ones hid the shared set
// declining under 90 %). The final model is trained on every corpus and shipped with that threshold in
// host/src/cerebro/answer/decision-weights.json (its default `minRelevance`); the table goes to scores.json.
// `validacion` questions are only reported, never trained or tuned on. Re-run whenever the features, retrieval or
// composition change; then rebuild and commit both files.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { crossValidate, FEATURE_NAMES, judgeLabelled, scoreQuestions } from './decision-calibration.mjs';
import { indexedSets } from './labelled-sets.mjs';

const dist = new URL('../../host/dist/cerebro/', import.meta.url);
const load = async (path) => import(new URL(path, dist).href);
const { CANDIDATE_THRESHOLDS, DEFAULT_MIN_DECLINED, leastSetDeclined, pickThreshold, thresholdFigures } = await load(
  'calibration/pick-threshold.js',
);
const WEIGHTS_FILE = fileURLToPath(new URL('../../host/src/cerebro/answer/decision-weights.json', import.meta.url));
const SCORES_FILE = fileURLToPath(new URL('scores.json', import.meta.url));

const { engine } = await indexedSets();
const { answerer, options, judged } = await judgeLabelled(engine);
// Held out by corpus, and as the shipped model (trained on every dev corpus) judges them: a threshold must decline
// enough both ways.
const { corpora, heldOut, inSample, trained } = await crossValidate(answerer, options, judged);
const choice = pickThreshold(heldOut, CANDIDATE_THRESHOLDS, DEFAULT_MIN_DECLINED, inSample);
if (!choice) {
  console.error(
    'calibrate: no threshold declines 90 % of the unanswerable questions of each set, held out and as the shipped model judges them; nothing written.',
  );
  process.exit(1);
}
const final = { ...trained, threshold: choice.threshold };
const round = (a) => a.map((v) => Math.round(v * 1e6) / 1e6);
writeFileSync(
  WEIGHTS_FILE,
  `${JSON.stringify({ ...final, mean: round(final.mean), scale: round(final.scale), weights: round(final.weights), bias: Math.round(final.bias * 1e6) / 1e6 }, null, 1)}\n`,
);
writeFileSync(
  SCORES_FILE,
  `${JSON.stringify({ threshold: choice.threshold, correct: choice.correct, declined: choice.declined, precision: choice.precision, questions: heldOut, shipped: inSample }, null, 1)}\n`,
);

const pct = (x) => `${(100 * x).toFixed(1).padStart(5)} %`;
console.log('Held-out figures (each corpus judged by a model trained without it), pooled over the dev corpora:');
console.log('threshold  correct  claimed  declined  least set  precision  shipped least set');
for (const t of CANDIDATE_THRESHOLDS) {
  const f = thresholdFigures(heldOut, t);
  console.log(
    `${t.toFixed(3).padStart(9)}  ${String(f.correct).padStart(7)}  ${String(f.claimed).padStart(7)}  ${pct(f.declined)}  ${pct(leastSetDeclined(heldOut, t))}   ${pct(f.precision)}  ${pct(leastSetDeclined(inSample, t))}${t === choice.threshold ? '  <- chosen' : ''}`,
  );
}
console.log(`\nPer held-out corpus at ${choice.threshold}:`);
for (const corpus of corpora) {
  const f = thresholdFigures(
    heldOut.filter((q) => q.corpus === corpus),
    choice.threshold,
  );
  const answerable = heldOut.filter((q) => q.corpus === corpus && q.answerable).length;
  console.log(
    `  ${corpus.padEnd(18)} answered right ${f.correct}/${answerable}, declined ${pct(f.declined)}, precision ${pct(f.precision)}`,
  );
}
const validation = await scoreQuestions(
  answerer,
  options,
  judged.filter((x) => x.q.split === 'validacion'),
  final,
);
const v = thresholdFigures(validation, choice.threshold);
console.log(
  `\nvalidacion (report only, final model): answered right ${v.correct}/${validation.filter((q) => q.answerable).length}, declined ${pct(v.declined)}, precision ${pct(v.precision)}`,
);
console.log(
  '\nweights:',
  Object.fromEntries(FEATURE_NAMES.map((n, i) => [n, Math.round(final.weights[i] * 1000) / 1000])),
);
console.log(`wrote ${WEIGHTS_FILE} and ${SCORES_FILE}; rebuild (npx tsc -b) and commit both.`);
await engine.stop();
