// The steps of calibrating answer-or-decline, shared by `npm run calibrate` (calibrate.mjs) and the trial script
// that compares training variants (decision-trial.mjs): judge every labelled question once, train the logistic model
// on the passages of some of them, and score questions with a model (their best probability and, per candidate
// threshold, whether the composed answer holds the keys). Run after `tsc -b`.
import { holdsKeys, labelledQuestions } from './labelled-sets.mjs';

const dist = new URL('../../host/dist/cerebro/', import.meta.url);
const load = async (path) => import(new URL(path, dist).href);
const { ExtractiveAnswerer, resolveOptions } = await load('answer/extractive.js');
const { FEATURE_NAMES } = await load('answer/decision-features.js');
const { answerProbability } = await load('answer/decision-model.js');
const { trainLogistic, DEFAULT_TRAINING, ANSWERABLE_NEGATIVE_WEIGHT } = await load('calibration/logistic.js');
const { CANDIDATE_THRESHOLDS, thresholdKey } = await load('calibration/pick-threshold.js');

export { FEATURE_NAMES, DEFAULT_TRAINING };

/** The request a labelled question is asked with: a conversation turn carries the questions before it. */
const requestOf = (q) => ({
  space: q.corpus,
  question: q.question,
  history: (q.turn?.earlier ?? []).flatMap((p) => [
    { role: 'user', content: p },
    { role: 'assistant', content: '' },
  ]),
});

/** Judges every labelled question (both splits) once: `{ q, request, j, labels }`, labels per pooled passage. */
export async function judgeLabelled(engine) {
  const answerer = new ExtractiveAnswerer(engine.index, engine.retriever);
  const options = resolveOptions({});
  const judged = [];
  for (const q of labelledQuestions()) {
    const request = requestOf(q);
    const j = await answerer.judge(request, options);
    const labels = j.pool.map((p) =>
      q.answerable && holdsKeys(`${p.hit.headings.join(' ')} ${p.hit.text}`, q) ? 1 : 0,
    );
    judged.push({ q, request, j, labels });
  }
  return { answerer, options, judged };
}

/**
 * The rows the model learns from: every one of the first `passages` of each question (those the decision is taken
 * on), labelled 1 when it holds the question's keys.
 */
export function rowsOf(items, passages, weigh = () => 1) {
  const rows = [];
  const labels = [];
  const weights = [];
  for (const { q, j, labels: l } of items) {
    j.pool.slice(0, passages).forEach((p, i) => {
      const w = Number(weigh(q, l[i], i));
      if (w <= 0) return;
      rows.push(p.features);
      labels.push(l[i]);
      weights.push(w);
    });
  }
  return { rows, labels, weights };
}

/**
 * How the shipped model weighs a row: a passage without the keys of an answerable question counts
 * ANSWERABLE_NEGATIVE_WEIGHT (calibration/logistic.ts), every other row 1.
 */
export const shippedWeighing = (q, label) => (!q.answerable || label === 1 ? 1 : ANSWERABLE_NEGATIVE_WEIGHT);

/**
 * Trains the decision model on the judged items' passages. `weigh(question, label, rank)` may weigh rows differently
 * or leave them out (0): a trial of which passages teach the decision.
 */
export function train(items, passages, training = DEFAULT_TRAINING, weigh = shippedWeighing) {
  const { rows, labels, weights } = rowsOf(items, passages, weigh);
  return trainLogistic(FEATURE_NAMES, rows, labels, training, weights);
}

/** Each question judged by `model`: its best probability and, per candidate threshold, whether its answer is right. */
export async function scoreQuestions(answerer, options, items, model) {
  const out = [];
  for (const { q, request, j } of items) {
    const pool = j.pool.map((p) => ({ ...p, score: answerProbability(model, p.features) }));
    const relevance = Math.max(0, ...pool.slice(0, options.passages).map((p) => p.score));
    const correctAt = {};
    const bySet = new Map();
    if (q.answerable) {
      for (const t of CANDIDATE_THRESHOLDS.filter((t) => t <= relevance)) {
        const set = pool.map((p) => (p.score >= t ? 1 : 0)).join('');
        if (!bySet.has(set)) {
          const answer = await answerer.compose(request, { ...j, pool }, { ...options, minRelevance: t });
          bySet.set(set, answer.found && holdsKeys(answer.text, q));
        }
        correctAt[thresholdKey(t)] = bySet.get(set);
      }
    }
    out.push({
      question: q.question,
      corpus: q.corpus,
      set: q.corpus === 'propio' ? 'propio' : 'compartido',
      split: q.split,
      conversation: q.turn !== null,
      answerable: q.answerable,
      relevance: Math.round(relevance * 10_000) / 10_000,
      correctAt,
    });
  }
  return out;
}

/**
 * Leave-one-corpus-out over the `dev` items: each corpus scored by a model trained on the others (`heldOut`), and
 * every dev item scored by the model trained on all of them (`inSample`, the one that ships: `trained`).
 */
export async function crossValidate(answerer, options, judged, fit = (items) => train(items, options.passages)) {
  const dev = judged.filter((x) => x.q.split === 'dev');
  const corpora = [...new Set(dev.map((x) => x.q.corpus))];
  const heldOut = [];
  for (const corpus of corpora) {
    const model = fit(dev.filter((x) => x.q.corpus !== corpus));
    heldOut.push(
      ...(await scoreQuestions(
        answerer,
        options,
        dev.filter((x) => x.q.corpus === corpus),
        model,
      )),
    );
  }
  const trained = fit(dev);
  const inSample = await scoreQuestions(answerer, options, dev, trained);
  return { corpora, heldOut, inSample, trained };
}
