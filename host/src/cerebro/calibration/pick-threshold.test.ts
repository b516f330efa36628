import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DECISION_MODEL } from '../answer/decision-model.js';
import { DEFAULT_ANSWER_OPTIONS } from '../answer/types.js';
import {
  CANDIDATE_THRESHOLDS,
  leastSetDeclined,
  pickThreshold,
  thresholdFigures,
  type ScoredQuestion,
} from './pick-threshold.js';

const q = (answerable: boolean, relevance: number, correctAt: Record<string, boolean> = {}): ScoredQuestion => ({
  question: '?',
  corpus: 'c',
  answerable,
  relevance,
  correctAt,
});

test('the committed held-out table reproduces the shipped threshold, which is the default minimum relevance', () => {
  // Written by `npm run calibrate` (bench/respuestas/calibrate.mjs) from the labelled question sets.
  const table = JSON.parse(
    readFileSync(new URL('../../../../bench/respuestas/scores.json', import.meta.url), 'utf8'),
  ) as { questions: ScoredQuestion[]; shipped: ScoredQuestion[] };
  const choice = pickThreshold(table.questions, CANDIDATE_THRESHOLDS, undefined, table.shipped);
  assert.ok(choice);
  assert.equal(choice.threshold, DECISION_MODEL.threshold);
  assert.equal(DEFAULT_ANSWER_OPTIONS.minRelevance, DECISION_MODEL.threshold);
  assert.ok(choice.declined >= 0.9);
});

test('the lowest threshold that declines enough wins when it answers more', () => {
  const table = [
    q(true, 0.5, { '0.400': true, '0.500': true }),
    q(true, 0.45, { '0.400': true }),
    q(false, 0.3),
    q(false, 0.35),
  ];
  assert.deepEqual(pickThreshold(table, [0.3, 0.4, 0.5]), {
    threshold: 0.4,
    correct: 2,
    claimed: 2,
    declined: 1,
    precision: 1,
  });
});

test('a wrong answer costs as much as a right one gains, and ties go to the higher threshold', () => {
  // At 0.4 two questions are answered, one wrongly: net 0, as at 0.5 where nothing is answered.
  const table = [q(true, 0.45, { '0.400': true }), q(true, 0.42, { '0.400': false }), q(false, 0.2)];
  assert.equal(pickThreshold(table, [0.4, 0.5])!.threshold, 0.5);
  assert.deepEqual(thresholdFigures(table, 0.4), {
    threshold: 0.4,
    correct: 1,
    claimed: 2,
    declined: 1,
    precision: 0.5,
  });
});

test('no threshold is picked when none declines enough of the unanswerable questions', () => {
  assert.equal(pickThreshold([q(true, 0.5, { '0.400': true }), q(false, 0.9)], [0.4, 0.5]), null);
});

test('every labelled set must decline enough on its own: one with easy unanswerable questions does not hide another', () => {
  const inSet = (set: string, answerable: boolean, relevance: number, correctAt: Record<string, boolean> = {}) => ({
    ...q(answerable, relevance, correctAt),
    set,
  });
  // Pooled, 0.4 declines 9 of 10 unanswerable questions; but the shared set declines only 1 of 2 there.
  const table = [
    inSet('compartido', true, 0.6, { '0.400': true, '0.500': true }),
    inSet('compartido', true, 0.45, { '0.400': true }),
    inSet('compartido', false, 0.45),
    inSet('compartido', false, 0.2),
    ...Array.from({ length: 8 }, () => inSet('propio', false, 0.1)),
  ];
  assert.equal(thresholdFigures(table, 0.4).declined, 0.9);
  assert.equal(leastSetDeclined(table, 0.4), 0.5);
  assert.deepEqual(pickThreshold(table, [0.4, 0.5]), {
    threshold: 0.5,
    correct: 1,
    claimed: 1,
    declined: 1,
    precision: 1,
  });
});

test('a threshold must also decline enough as the shipped model judges the questions, not only held out', () => {
  const heldOut = [q(true, 0.5, { '0.300': true, '0.400': true }), q(false, 0.2)];
  // Trained on every question, the shipped model gives the unanswerable one 0.35: at 0.3 it would answer it.
  const shipped = [q(true, 0.55, { '0.300': true, '0.400': true }), q(false, 0.35)];
  assert.equal(pickThreshold(heldOut, [0.3, 0.4])!.threshold, 0.4, 'ties go to the higher threshold');
  assert.equal(pickThreshold(heldOut, [0.3], undefined, shipped), null);
  assert.equal(pickThreshold(heldOut, [0.3, 0.4], undefined, shipped)!.threshold, 0.4);
  assert.equal(pickThreshold([...heldOut, q(true, 0.35, { '0.300': true })], [0.3, 0.4])!.threshold, 0.3);
  assert.equal(
    pickThreshold([...heldOut, q(true, 0.35, { '0.300': true })], [0.3, 0.4], undefined, shipped)!.threshold,
    0.4,
  );
});
