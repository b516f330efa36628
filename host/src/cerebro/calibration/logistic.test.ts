import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerProbability } from '../answer/decision-model.js';
import { trainLogistic } from './logistic.js';

test('logistic regression learns which feature separates the labels, and its probabilities follow it', () => {
  // Label 1 when the first feature is high; the second is noise.
  const rows: number[][] = [];
  const labels: number[] = [];
  for (let i = 0; i < 200; i++) {
    const signal = (i % 20) / 20;
    const noise = ((i * 7919) % 13) / 13;
    rows.push([signal * 10, noise]);
    labels.push(signal > 0.5 ? 1 : 0);
  }
  const model = trainLogistic(['signal', 'noise'], rows, labels);
  assert.ok(Math.abs(model.weights[0]!) > 5 * Math.abs(model.weights[1]!));
  assert.ok(answerProbability(model, [9, 0.5]) > 0.9);
  assert.ok(answerProbability(model, [1, 0.5]) < 0.1);
  assert.deepEqual(model.features, ['signal', 'noise']);
});
