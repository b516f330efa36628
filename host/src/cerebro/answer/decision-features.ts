// What the answer-or-decline model reads about one retrieved passage: several signals of whether it answers the
// question, each one alone weak (word overlap saturates: many unrelated passages share every common word of a
// question). The model (decision-model.ts) weighs them as learned from labelled questions.
import type { SearchHit } from '../index/passage-index.js';
import { words } from '../text/analyzer.js';
import { holdsType, type AnswerType } from './answer-type.js';
import { passageUnits } from './passage-units.js';
import type { Relevance } from './relevance.js';

/** The features, in the order the model's weights are stored (decision-weights.json names them). */
export const FEATURE_NAMES = [
  'coverage',
  'bodyCoverage',
  'headingCoverage',
  'unionCoverage',
  'topicCovered',
  'proximity',
  'typeAsked',
  'typeHeld',
  'contentWords',
  'nameMissing',
  'unitCoverage',
  'unitTypeHeld',
  'wordAbsent',
] as const;

export type FeatureVector = number[];

/** What is known of the question and its retrieved list before looking at one passage. */
export interface QuestionContext {
  /** The question as asked (its capitalised names are read from it). */
  question: string;
  relevance: Relevance;
  /** The value the question asks for (answer-type.ts), or null. */
  asked: AnswerType | null;
  hits: readonly SearchHit[];
  /** Per hit: the share of the question's weighted content words it holds, with its heading path. */
  coverage: readonly number[];
  /** Whether some content word of the question occurs in none of the space's passages (PassageIndex.absentGroups). */
  wordAbsent?: boolean;
  /**
   * Per hit, with an embedding model: the question's word groups close in meaning to it, which count as covered in
   * every coverage feature (vector/close-words.ts).
   */
  close?: readonly (ReadonlySet<number> | undefined)[];
}

/**
 * How close together the passage holds the question's words it holds: the number of distinct question words found
 * divided by the shortest run of the passage's words holding them all (1 when one word or none is found). A passage
 * that says "el envío a Canarias cuesta" answers better than one with "envío" in its first line and "Canarias" in
 * its last.
 */
export function proximity(relevance: Relevance, text: string): number {
  const positions: { at: number; group: number }[] = [];
  // A passage repeats its words: each distinct word is analysed once (stemming in every language is the cost here).
  const groupsOf = new Map<string, Set<number>>();
  words(text).forEach((w, at) => {
    let groups = groupsOf.get(w);
    if (!groups) groupsOf.set(w, (groups = relevance.groupsIn(relevance.termsOf(w))));
    for (const g of groups) positions.push({ at, group: g });
  });
  const groups = new Set(positions.map((p) => p.group));
  if (groups.size <= 1) return 1;
  // Smallest window holding every found group (two pointers over positions in order).
  const count = new Map<number, number>();
  let best = Infinity;
  let have = 0;
  let left = 0;
  for (const p of positions) {
    count.set(p.group, (count.get(p.group) ?? 0) + 1);
    if (count.get(p.group) === 1) have++;
    while (have === groups.size) {
      const first = positions[left]!;
      best = Math.min(best, p.at - first.at + 1);
      const c = count.get(first.group)! - 1;
      count.set(first.group, c);
      if (c === 0) have--;
      left++;
    }
  }
  return Math.min(1, groups.size / best);
}

/**
 * The names a question uses: words capitalised past the first word of each of its sentences ("Nextcloud", "WireGuard") and words mixing
 * letters with digits, dots or hyphens ("Node.js", "systemd-boot"). A name no retrieved passage holds is the surest
 * sign that the documents do not talk about what is asked; an ordinary word missing is often only a paraphrase.
 */
export function namesIn(question: string): string[] {
  const raw = question.split(/\s+/).filter(Boolean);
  return raw
    .map((token, i) => ({
      token: token.replace(/[¿?¡!,;:()«»"]/g, ''),
      // A word opening a sentence ("¿Dónde guardáis mis datos? ¿Están en Europa?") is capitalised as such.
      opens: i === 0 || /^[¿¡]/.test(token) || /[.?!:]["»)]?$/.test(raw[i - 1]!),
    }))
    .filter(({ token, opens }) => {
      const bare = token.replace(/[.]+$/, '');
      if (bare.length < 2 || !/\p{L}/u.test(bare)) return false;
      if (!opens && /^\p{Lu}/u.test(bare)) return true;
      return /\p{L}[\d.-]|[\d.-]\p{L}|\p{Ll}\p{Lu}/u.test(bare);
    })
    .map(({ token }) => token.replace(/[.]+$/, ''));
}

/**
 * The best single unit of a passage (a sentence, an item, a row) for the question: its coverage, half of it counting
 * the section's headings as the unit's own words (as the composer scores units), and whether it or the unit after
 * it holds the asked value. A passage whose words are scattered over unrelated sentences scores low here.
 */
function bestUnit(
  relevance: Relevance,
  hit: SearchHit,
  asked: AnswerType | null,
  close?: ReadonlySet<number>,
): { coverage: number; typed: boolean } {
  const units = passageUnits(hit.text);
  const heading = relevance.termsOf(hit.headings.join(' '));
  let best = { coverage: 0, typed: false };
  units.forEach((unit, i) => {
    const own = relevance.termsOf(unit.text);
    const alone = relevance.coverage(own, close);
    for (const t of heading) own.add(t);
    const coverage = 0.5 * alone + 0.5 * relevance.coverage(own, close);
    if (coverage <= best.coverage) return;
    const typed =
      asked !== null &&
      (holdsType(unit.text, asked) || (units[i + 1] !== undefined && holdsType(units[i + 1]!.text, asked)));
    best = { coverage, typed };
  });
  return best;
}

/** The features of every hit of a question's retrieved list. */
export function decisionFeatures(context: QuestionContext): FeatureVector[] {
  const { relevance, asked, hits, coverage } = context;
  const union = new Set<string>();
  const topic = relevance.topicGroup();
  const contentWords = Math.log1p(relevance.groupCount);
  const termsPerHit = hits.map((h) => {
    const terms = relevance.termsOf(`${h.headings.join(' ')} ${h.text}`);
    for (const t of terms) union.add(t);
    return terms;
  });
  const closeAll = new Set((context.close ?? []).flatMap((c) => [...(c ?? [])]));
  const unionCoverage = relevance.coverage(union, closeAll);
  const nameMissing = namesIn(context.question).some((name) => ![...relevance.termsOf(name)].some((t) => union.has(t)))
    ? 1
    : 0;
  return hits.map((hit, i) => {
    const body = relevance.termsOf(hit.text);
    const heading = relevance.termsOf(hit.headings.join(' '));
    const close = context.close?.[i];
    const unit = bestUnit(relevance, hit, asked, close);
    return [
      coverage[i] ?? 0,
      relevance.coverage(body, close),
      relevance.coverage(heading, close),
      unionCoverage,
      topic !== null && (relevance.groupsIn(termsPerHit[i]!).has(topic) || close?.has(topic)) ? 1 : 0,
      proximity(relevance, hit.text),
      asked === null ? 0 : 1,
      asked !== null && holdsType(`${hit.headings.join(' ')} ${hit.text}`, asked) ? 1 : 0,
      contentWords,
      nameMissing,
      unit.coverage,
      unit.typed ? 1 : 0,
      context.wordAbsent ? 1 : 0,
    ];
  });
}
