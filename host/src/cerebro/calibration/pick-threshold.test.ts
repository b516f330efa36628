import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DEFAULT_ANSWER_OPTIONS } from '../answer/types.js';
import { CANDIDATE_THRESHOLDS, pickThreshold, type ScoredQuestion } from './pick-threshold.js';

const q = (answerable: boolean, relevance: number, correctAt: Record<string, boolean> = {}): ScoredQuestion =>
  ({ question: '?', answerable, relevance, correctAt });

test('the committed scores table reproduces the default minimum relevance', () => {
  // Written by `npm run calibrate` (bench/respuestas/calibrate.mjs) from the labelled question set.
  const table = JSON.parse(readFileSync(new URL('../../../../bench/respuestas/scores.json', import.meta.url), 'utf8')) as { questions: ScoredQuestion[] };
  const choice = pickThreshold(table.questions, CANDIDATE_THRESHOLDS);
  assert.ok(choice);
  assert.equal(choice.threshold, DEFAULT_ANSWER_OPTIONS.minRelevance);
});

test('the lowest threshold that declines enough wins when it answers more', () => {
  const table = [
    q(true, 0.5, { '0.40': true, '0.50': true }),
    q(true, 0.45, { '0.40': true }),
    q(false, 0.3),
    q(false, 0.35),
  ];
  assert.deepEqual(pickThreshold(table, [0.3, 0.4, 0.5]), { threshold: 0.4, correct: 2, declined: 1 });
});

test('an answer that is wrong at a threshold does not count there, and ties go to the higher threshold', () => {
  const table = [q(true, 0.6, { '0.40': false, '0.50': true }), q(false, 0.2)];
  assert.deepEqual(pickThreshold(table, [0.4, 0.5]), { threshold: 0.5, correct: 1, declined: 1 });
});

test('no threshold is picked when none declines enough of the unanswerable questions', () => {
  assert.equal(pickThreshold([q(true, 0.5, { '0.40': true }), q(false, 0.9)], [0.4, 0.5]), null);
});
