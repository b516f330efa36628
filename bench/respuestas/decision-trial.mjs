#!/usr/bin/env node
// Compares variants of the answer-or-decline training on the same judged questions (run after `tsc -b`; with
// CEREBRO_SETS_CACHE=<file> the indexed corpora are reused): for each variant, the held-out (leave-one-corpus-out)
// figures at the threshold `pickThreshold` chooses, and, for report only, the final model on `validacion`. Nothing is
// written but `.bench/decision-trial.json` (per dev question: its passages' labels, features and probabilities, for
// analysis). `node bench/respuestas/decision-trial.mjs [variant …]`; no variant: all of them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  crossValidate,
  DEFAULT_TRAINING,
  FEATURE_NAMES,
  judgeLabelled,
  scoreQuestions,
  train,
} from './decision-calibration.mjs';
import { indexedSets } from './labelled-sets.mjs';

const dist = new URL('../../host/dist/cerebro/', import.meta.url);
const load = async (path) => import(new URL(path, dist).href);
const { CANDIDATE_THRESHOLDS, DEFAULT_MIN_DECLINED, leastSetDeclined, pickThreshold, thresholdFigures } = await load(
  'calibration/pick-threshold.js',
);
const { answerProbability, DECISION_MODEL } = await load('answer/decision-model.js');

/** A variant: training options, features left out (held constant), rows weighed or left out (`weigh`). */
const VARIANTS = {
  shipped: {},
  // The weights in decision-weights.json as they are, not retrained: every corpus judged by them (nothing held out).
  'shipped-weights': { fit: () => DECISION_MODEL },
  'all-negatives-weigh-1': { weigh: () => 1 },
  'no-answerable-negatives': { weigh: (q, label) => !q.answerable || label === 1 },
  'answerable-negatives-0.1': { weigh: (q, label) => (!q.answerable || label === 1 ? 1 : 0.1) },
  'answerable-negatives-0.2': { weigh: (q, label) => (!q.answerable || label === 1 ? 1 : 0.2) },
  'answerable-negatives-0.3': { weigh: (q, label) => (!q.answerable || label === 1 ? 1 : 0.3) },
  'answerable-negatives-0.5': { weigh: (q, label) => (!q.answerable || label === 1 ? 1 : 0.5) },
  'positive-weight-1': { training: { ...DEFAULT_TRAINING, positiveWeight: 1 } },
  'positive-weight-4': { training: { ...DEFAULT_TRAINING, positiveWeight: 4 } },
  'l2-0.1': { training: { ...DEFAULT_TRAINING, l2: 0.1 } },
};
const NEGATIVES = Number(process.env.TRIAL_NEGATIVES ?? 0.2);
const lighterNegatives = (q, label) => (!q.answerable || label === 1 ? 1 : NEGATIVES);
for (const name of FEATURE_NAMES) VARIANTS[`without-${name}`] = { drop: [name], weigh: lighterNegatives };
VARIANTS['without-new'] = {
  drop: ['unitValueHeld', 'presentCoverage', 'absentShare', 'topicInHeading', 'absentRarity'],
  weigh: lighterNegatives,
};

const masked = (judged, drop = []) => {
  if (drop.length === 0) return judged;
  const at = drop.map((n) => FEATURE_NAMES.indexOf(n));
  return judged.map((x) => ({
    ...x,
    j: { ...x.j, pool: x.j.pool.map((p) => ({ ...p, features: p.features.map((v, i) => (at.includes(i) ? 0 : v)) })) },
  }));
};

const { engine } = await indexedSets();
const { answerer, options, judged } = await judgeLabelled(engine);
const pct = (x) => `${(100 * x).toFixed(1)} %`;
const chosen = process.argv.slice(2);
const dump = [];
for (const [name, variant] of Object.entries(VARIANTS)) {
  if (chosen.length > 0 && !chosen.includes(name)) continue;
  const items = masked(judged, variant.drop);
  const fit = variant.fit ?? ((xs) => train(xs, options.passages, variant.training ?? DEFAULT_TRAINING, variant.weigh));
  const { corpora, heldOut, inSample, trained } = await crossValidate(answerer, options, items, fit);
  const choice = pickThreshold(heldOut, CANDIDATE_THRESHOLDS, DEFAULT_MIN_DECLINED, inSample);
  if (!choice) {
    console.log(`${name}: no threshold declines enough`);
    continue;
  }
  const t = choice.threshold;
  const perCorpus = corpora
    .map((c) => {
      const f = thresholdFigures(
        heldOut.filter((q) => q.corpus === c),
        t,
      );
      return `${c} ${f.correct}`;
    })
    .join(', ');
  const validation = await scoreQuestions(
    answerer,
    options,
    items.filter((x) => x.q.split === 'validacion'),
    { ...trained, threshold: t },
  );
  const v = thresholdFigures(validation, t);
  /** Standalone questions of one set (the bench's answered and declined figures; turns are scored apart). */
  const ofSet = (table, set, at) => {
    const qs = table.filter((q) => q.set === set && !q.conversation);
    const f = thresholdFigures(qs, at);
    const n = qs.filter((q) => q.answerable).length;
    return `${set} ${f.correct}/${n} ${pct(f.correct / n)} declined ${pct(f.declined)} precision ${pct(f.precision)}`;
  };
  const dev = thresholdFigures(inSample, t);
  // Alternatives to the shipped objective (most right answers net of wrong ones), under the same constraints.
  const alternatives = Object.entries({
    'most right': (f) => f.correct,
    'most right, held-out only': (f) => f.correct,
  }).map(([label, objective]) => {
    let best = null;
    for (const c of CANDIDATE_THRESHOLDS) {
      const f = thresholdFigures(heldOut, c);
      const ok =
        leastSetDeclined(heldOut, c) >= DEFAULT_MIN_DECLINED &&
        (label.endsWith('only') || leastSetDeclined(inSample, c) >= DEFAULT_MIN_DECLINED);
      if (ok && (best === null || objective(f) >= objective(best))) best = f;
    }
    if (best === null) return `${label}: none`;
    const d = thresholdFigures(inSample, best.threshold);
    return `${label}: t ${best.threshold.toFixed(3)} held-out ${best.correct}/${best.claimed} ${pct(best.declined)}, in-sample ${d.correct}/${d.claimed} ${pct(d.declined)}`;
  });
  console.log(
    `${name.padEnd(28)} t ${t.toFixed(3)} in-sample ${dev.correct}/${dev.claimed} declined ${pct(dev.declined)}  held-out correct ${choice.correct} claimed ${choice.claimed} declined ${pct(choice.declined)} (least set ${pct(leastSetDeclined(heldOut, t))}, shipped ${pct(leastSetDeclined(inSample, t))}) precision ${pct(choice.precision)} [${perCorpus}] | validacion ${v.correct} declined ${pct(v.declined)} precision ${pct(v.precision)}\n    in-sample: ${ofSet(inSample, 'compartido', t)}; ${ofSet(inSample, 'propio', t)}; validacion ${ofSet(validation, 'compartido', t)}\n    ${alternatives.join('\n    ')}`,
  );
  if (name === (chosen[0] ?? 'shipped')) {
    const held = new Map(heldOut.map((s) => [s.question + s.corpus, s]));
    for (const x of items.filter((i) => i.q.split === 'dev')) {
      const top = x.j.pool.slice(0, options.passages);
      dump.push({
        id: x.q.id,
        corpus: x.q.corpus,
        question: x.q.question,
        answerable: x.q.answerable,
        heldOut: held.get(x.q.question + x.q.corpus)?.relevance,
        correctAtChosen: held.get(x.q.question + x.q.corpus)?.correctAt[t.toFixed(3)] ?? false,
        passages: top.map((p, i) => ({
          label: x.labels[i],
          probability: Math.round(answerProbability(trained, p.features) * 1000) / 1000,
          features: Object.fromEntries(FEATURE_NAMES.map((n, k) => [n, Math.round(p.features[k] * 1000) / 1000])),
          heading: p.hit.headings.join(' › '),
          text: p.hit.text.slice(0, 300),
        })),
      });
    }
  }
}
const out = fileURLToPath(new URL('../../.bench/decision-trial.json', import.meta.url));
mkdirSync(fileURLToPath(new URL('../../.bench/', import.meta.url)), { recursive: true });
writeFileSync(out, JSON.stringify(dump, null, 1));
console.log(`per-question data: ${out}`);
await engine.stop();
