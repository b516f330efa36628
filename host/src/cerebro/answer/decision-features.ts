// What the answer-or-decline model reads about one retrieved passage: several signals of whether it answers the
// question, each one alone weak (word overlap saturates: many unrelated passages share every common word of a
// question). The model (decision-model.ts) weighs them as learned from labelled questions.
import type { SearchHit } from '../index/passage-index.js';
import { foldAccents, words } from '../text/analyzer.js';
import { BACKGROUND_PRIOR, backgroundShare } from '../text/background-prior.js';
import { askedValueTest, holdsType, type AnswerType } from './answer-type.js';
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
  'unitValueHeld',
  'presentCoverage',
  'absentShare',
  'topicInHeading',
  'absentRarity',
  'coverageLead',
] as const;

/**
 * How many of the retrieved passages `coverageLead` compares a passage with: the first ones, those the decision is
 * taken on by default (`DEFAULT_ANSWER_OPTIONS.passages`). A deeper pool (how-to, where) would otherwise lower every
 * lead only because more passages share the question's common words.
 */
export const LEAD_DEPTH = 5;

export type FeatureVector = number[];

/** What is known of the question and its retrieved list before looking at one passage. */
export interface QuestionContext {
  /** The question as asked (its capitalised names are read from it). */
  question: string;
  relevance: Relevance;
  /** The value the question asks for (answer-type.ts), or null. */
  asked: AnswerType | null;
  /** The question whose wording says how precisely the value is asked (a fragment's antecedent); else `question`. */
  valueQuestion?: string;
  hits: readonly SearchHit[];
  /** Per hit: the share of the question's weighted content words it holds, with its heading path. */
  coverage: readonly number[];
  /** Whether some content word of the question occurs in none of the space's passages (PassageIndex.absentGroups). */
  wordAbsent?: boolean;
  /** Per content-word group, whether it occurs in none of the space's passages (PassageIndex.absentGroups). */
  absent?: readonly boolean[];
  /** The question's content-word groups (alternative terms), in the order of `absent`. */
  groups?: readonly (readonly string[])[];
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
      // Punctuation around the word, not inside it ("APT::Default-Release" is one name).
      token: token.replace(/^[¿¡(«"]+|[?!,;:)»"]+$/g, ''),
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
 * Whether the retrieved passages hold a name the question uses. A name of one word is held when some passage holds
 * one of its terms. A name joining several words with dots or hyphens ("systemd-boot", "Node.js", "sources.list")
 * is one thing, not its parts: it is held only where a passage says its words one right after the other (a manual
 * that says "systemd" and "boot" apart does not talk about systemd-boot).
 */
export function nameHeld(
  name: string,
  relevance: Relevance,
  union: ReadonlySet<string>,
  texts: readonly string[],
): boolean {
  const parts = words(name).map(foldAccents);
  // A one-word name is held by any term its word searches (a city by the region that contains it: text/places.ts).
  if (parts.length <= 1) {
    const terms = relevance.termsOf(name);
    return (
      [...terms].some((t) => union.has(t)) ||
      [...relevance.groupsIn(terms)].some((g) => relevance.groupTerms(g).some((t) => union.has(t)))
    );
  }
  return texts.some((text) => {
    const all = words(text).map(foldAccents);
    for (let i = all.indexOf(parts[0]!); i >= 0 && i + parts.length <= all.length; i = all.indexOf(parts[0]!, i + 1))
      if (parts.every((p, k) => all[i + k] === p)) return true;
    return false;
  });
}

/** Coverages this close are a tie (sums of the same weights in another order differ only in the last bits). */
const TIE = 1e-9;

/**
 * The best single unit of a passage (a sentence, an item, a row) for the question: its coverage, half of it counting
 * the section's headings as the unit's own words (as the composer scores units), and whether it or the unit after
 * it holds the asked value. A passage whose words are scattered over unrelated sentences scores low here. Units that
 * cover the question equally are equally the best, so the one holding the value is: "La guardia es semanal." and
 * "Compensación: $3,500 MXN por semana de guardia." both say semana and guardia, and which comes first in the passage
 * must not decide whether the passage holds the price.
 */
function bestUnit(
  relevance: Relevance,
  hit: SearchHit,
  asked: AnswerType | null,
  value: ((text: string) => boolean) | null,
  close?: ReadonlySet<number>,
): { coverage: number; typed: boolean; valued: boolean } {
  const units = passageUnits(hit.text);
  const heading = relevance.termsOf(hit.headings.join(' '));
  let best = { coverage: 0, typed: false, valued: false };
  units.forEach((unit, i) => {
    const own = relevance.termsOf(unit.text);
    const alone = relevance.coverage(own, close);
    for (const t of heading) own.add(t);
    const coverage = 0.5 * alone + 0.5 * relevance.coverage(own, close);
    const tied = coverage > 0 && Math.abs(coverage - best.coverage) <= TIE;
    if (coverage < best.coverage && !tied) return;
    if (tied && best.typed && best.valued) return; // nothing left to learn from an equal unit
    const next = units[i + 1]?.text;
    const typed = asked !== null && (holdsType(unit.text, asked) || (next !== undefined && holdsType(next, asked)));
    const valued = value !== null && (value(unit.text) || (next !== undefined && value(next)));
    best = tied
      ? { coverage: best.coverage, typed: best.typed || typed, valued: best.valued || valued }
      : { coverage, typed, valued };
  });
  return best;
}

/**
 * How rare in general Spanish the rarest content word the space never uses is (0–1: 1 for a word the background
 * prior does not list, 0 when no word is absent). A missing common word ("¿me DAN…?", "¿cuánto TARDAN…?") is mostly a
 * paraphrase of what the documents say another way; a missing rare word or name ("cupón", "WireGuard") is mostly
 * something the documents do not talk about.
 */
export function absentRarity(groups: readonly (readonly string[])[], absent: ReadonlySet<number>): number {
  const floor = Math.log(BACKGROUND_PRIOR.documents + 1);
  let rarest = 0;
  for (const g of absent) {
    const terms = groups[g];
    if (terms) rarest = Math.max(rarest, Math.log(1 / backgroundShare(BACKGROUND_PRIOR, terms)) / floor);
  }
  return Math.min(1, rarest);
}

/**
 * Per hit, how far its coverage stands above the best coverage of the other first `LEAD_DEPTH` hits (−1 to 1). When
 * the question's words that the space holds are common in it ("¿La empresa paga el gimnasio?" over an employee
 * handbook: empresa, paga), many passages hold them alike and none leads; a passage that holds what singles the
 * question out ("laptop") leads the list. Coverage alone cannot tell the two apart: both are the same share of the
 * question.
 */
export function coverageLeads(coverage: readonly number[]): number[] {
  const first = coverage.slice(0, LEAD_DEPTH);
  return coverage.map((c, i) => {
    const others = first.filter((_, k) => k !== i);
    return c - (others.length > 0 ? Math.max(...others) : 0);
  });
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
  const texts = hits.map((h) => `${h.headings.join(' ')} ${h.text}`);
  const nameMissing = namesIn(context.question).some((name) => !nameHeld(name, relevance, union, texts)) ? 1 : 0;
  const absent = (context.absent ?? []).flatMap((a, g) => (a ? [g] : []));
  const wordAbsent = context.wordAbsent || absent.length > 0 ? 1 : 0;
  // A word counted as found in a retrieved passage (close in meaning with an embedding model, or a word naming the
  // value the passage holds) is not missing, whatever the space's words are.
  const absentGroups = new Set(absent.filter((g) => !closeAll.has(g)));
  // The share of the question's weight no passage of the space could match; what is left is what a passage can hold.
  const absentShare = absentGroups.size > 0 ? relevance.coverage(new Set(), absentGroups) : 0;
  const value = askedValueTest(context.valueQuestion ?? context.question, asked);
  const rarity = absentRarity(context.groups ?? [], absentGroups);
  const leads = coverageLeads(hits.map((_, i) => coverage[i] ?? 0));
  return hits.map((hit, i) => {
    const body = relevance.termsOf(hit.text);
    const heading = relevance.termsOf(hit.headings.join(' '));
    const close = context.close?.[i];
    const unit = bestUnit(relevance, hit, asked, value, close);
    const headingGroups = relevance.groupsIn(heading);
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
      wordAbsent,
      unit.valued ? 1 : 0,
      absentShare < 1 ? Math.min(1, (coverage[i] ?? 0) / (1 - absentShare)) : 0,
      absentShare,
      topic !== null && (headingGroups.has(topic) || close?.has(topic)) ? 1 : 0,
      rarity,
      leads[i]!,
    ];
  });
}
