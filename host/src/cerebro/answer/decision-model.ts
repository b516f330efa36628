// Answer or decline: a logistic model over the features of each retrieved passage (decision-features.ts) gives the
// probability that the passage holds the answer. The question is answered from the passages whose probability
// reaches the threshold, and declined when none does. Weights and threshold are learned from labelled questions by
// `npm run calibrate` (bench/respuestas/calibrate.mjs) and shipped in decision-weights.json.
import shipped from './decision-weights.json' with { type: 'json' };
import { FEATURE_NAMES, type FeatureVector } from './decision-features.js';

export interface DecisionModel {
  /** Feature names, in the order of `weights` (a model trained on other features is refused). */
  features: string[];
  /** Standardisation: each feature is (value − mean) / scale before it is weighed. */
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
  /** The probability at which a passage counts as answering (chosen by cross-validation across corpora). */
  threshold: number;
}

/** The probability (0–1) that a passage with these features holds the answer. */
export function answerProbability(model: DecisionModel, features: FeatureVector): number {
  let z = model.bias;
  for (let j = 0; j < model.weights.length; j++)
    z += model.weights[j]! * ((features[j]! - model.mean[j]!) / model.scale[j]!);
  return 1 / (1 + Math.exp(-z));
}

/** Throws when a stored model does not fit the features this code computes (it must be recalibrated). */
export function checkedModel(model: DecisionModel): DecisionModel {
  const same = model.features.length === FEATURE_NAMES.length && model.features.every((f, i) => f === FEATURE_NAMES[i]);
  const sized = [model.mean, model.scale, model.weights].every((a) => a.length === FEATURE_NAMES.length);
  if (!same || !sized)
    throw new Error('decision-weights.json does not match the decision features; run `npm run calibrate`.');
  return model;
}

/** The shipped model. */
export const DECISION_MODEL: DecisionModel = checkedModel(shipped as DecisionModel);
