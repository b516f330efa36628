// The embedded answering engine: no model, no external service. From the relevant passages it picks the units that
// answer the question best for its kind (a command with the sentence that introduces it for a how-to, a table row
// with its header, a defining sentence, a list item…) and composes them into a short answer that cites its sources.
// It only ever repeats text found in the documents, never cuts a unit short, and says so plainly when nothing
// relevant was found.
import type { PassageIndex, SearchHit } from '../index/passage-index.js';
import type { ModelJudgement, Retrieval, Retriever } from '../index/retriever.js';
import { queryTermGroups, words } from '../text/analyzer.js';
import { askedType, askedValueTest, holdsType, TYPE_WORDS, type AnswerType } from './answer-type.js';
import { decisionFeatures, type FeatureVector } from './decision-features.js';
import { answerProbability, DECISION_MODEL, type DecisionModel } from './decision-model.js';
import {
  announcesNewSubject,
  antecedents,
  dependsOnPrevious,
  hasWords,
  isEllipsis,
  previousQuestion,
  retrievalQuery,
  withoutOpening,
} from './follow-up.js';
import { askedName } from './asked-name.js';
import { negatedGroups } from './negation.js';
import { withGlosses } from './glosses.js';
import { hasAnswerShape, passageCandidates, type AskedValue, type Candidate } from './candidates.js';
import { passageUnits } from './passage-units.js';
import { contentQuestion } from './question-words.js';
import { asksTwoThings, questionKind, type QuestionKind } from './question-kind.js';
import { rerankedRelevance, Relevance } from './relevance.js';
import { cite, tableSource } from './render.js';
import {
  DEFAULT_ANSWER_OPTIONS,
  type Answer,
  type AnswerEvent,
  type Answerer,
  type AnswerOptions,
  type AnswerRequest,
  type AnswerSource,
} from './types.js';

export { passageSentences } from './passage-units.js';

/** Most units embedded per question to place close words (an embedding call of this many short texts). */
const MAX_UNITS_EMBEDDED = 64;

/** How many times `passages` deep a how-to or a where looks for a command or a path. */
const SHAPED_DEPTH = 3;

/** Share of the smaller set's words found in the other set. */
function overlap(a: Set<string>, b: Set<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 0;
  let n = 0;
  for (const x of small) if (large.has(x)) n++;
  return n / small.size;
}

export const headingOf = (hit: { headings: string[] }): string | null =>
  hit.headings.length ? hit.headings.join(' › ') : null;

export function toSource(hit: SearchHit, n: number, score: number, excerpt: string, cited = true): AnswerSource {
  return {
    n,
    documentId: hit.documentId,
    document: hit.documentName,
    passageId: hit.id,
    page: hit.page,
    heading: headingOf(hit),
    score: Math.round(score * 1000) / 1000,
    bm25: Math.round(hit.bm25 * 1000) / 1000,
    excerpt,
    cited,
  };
}

export function resolveOptions(partial?: Partial<AnswerOptions>): AnswerOptions {
  return {
    ...DEFAULT_ANSWER_OPTIONS,
    ...Object.fromEntries(Object.entries(partial ?? {}).filter(([, v]) => v !== undefined)),
  };
}

/** The text retrieval searches for: the question (or follow-up with its antecedent) without question-form words. */
export const searchText = (request: AnswerRequest): string => contentQuestion(retrievalQuery(request));

/**
 * The kind of answer a question asks for; a follow-up that does not say ("¿y a Canarias?") asks for what the
 * question it follows asked.
 */
export function askedKind(request: AnswerRequest, asFollowUp = false): QuestionKind {
  const own = questionKind(request.question);
  const previous = previousQuestion(request);
  if (!previous) return own;
  // A fragment ("¿y los sábados?") has no question word, so it reads as a yes/no; it asks what the question it
  // swaps the topic of asked (past earlier fragments: "¿y a Canarias?" after "¿y a Baleares?").
  const swapped = own === 'yes-no' ? ellipsisOf(request) : null;
  if (swapped !== null) return questionKind(swapped);
  if (own !== 'other' || !(asFollowUp || dependsOnPrevious(request.question))) return own;
  return questionKind(previous);
}

/** The question a fragment ("¿y los sábados?") swaps the topic of, past earlier fragments; null for other turns. */
function ellipsisOf(request: AnswerRequest): string | null {
  if (!isEllipsis(request.question)) return null;
  return antecedents(request).find((q) => !isEllipsis(q)) ?? null;
}

/** The kind of value a turn asks for; a fragment asks for what the question it swaps the topic of asked. */
export function askedValue(request: AnswerRequest, kind: QuestionKind): AnswerType | null {
  return askedType(ellipsisOf(request) ?? request.question, kind);
}

/**
 * The turn as it asks: without the words that open it but ask nothing ("Vale.", "Otra cosa:"), and, when it
 * announces a new subject, without the conversation before it: it stands on its own and must not lean on it.
 */
export function ownTurn(request: AnswerRequest): AnswerRequest {
  const question = withoutOpening(request.question);
  if (!announcesNewSubject(request.question)) return question === request.question ? request : { ...request, question };
  const { history: _earlier, ...alone } = request;
  return { ...alone, question };
}

/** Whether an answer holds at least one content word of the question itself (not of the turn it follows). */
function saysOwnWords(question: string, answer: string): boolean {
  const terms = Relevance.termsOf(answer);
  return queryTermGroups(contentQuestion(question)).some((alts) => alts.some((t) => terms.has(t)));
}

/** Share of the threshold a passage must reach to lend units to a question its best passage answers. */
const SUPPORT_SHARE = 0.5;

/** Weight, in a follow-up, of the words that come only from the question it follows. */
const CONTEXT_WORD_WEIGHT = 0.5;

/**
 * In a follow-up searched with the question it follows ("¿y a Canarias?" after "¿Cuánto cuesta el envío a
 * Valencia?"), the follow-up's own words say what is asked now; the earlier question's words only set the scene, so
 * they weigh less (else the row for Valencia answers the question about Canarias).
 */
function contextWeighted(
  groups: string[][],
  weights: number[],
  question: { text: string; followUp?: boolean },
): number[] {
  if (!question.followUp) return weights;
  const own = new Set(queryTermGroups(contentQuestion(question.text)).flat());
  return weights.map((w, i) => (groups[i]!.some((t) => own.has(t)) ? w : w * CONTEXT_WORD_WEIGHT));
}

/** The question's word groups that name the asked kind of value (`TYPE_WORDS`): "horario", "días", "precio". */
export function typeWordGroups(relevance: Relevance, asked: AnswerType | null): Set<number> {
  return asked === null
    ? new Set()
    : relevance.groupsIn(new Set(TYPE_WORDS[asked].flatMap((w) => [...relevance.termsOf(w)])));
}

/** The value a question asks for as the composer looks for it (`AskedValue`); null when it asks for no kind. */
export function askedValueOf(question: string, typed: AnswerType | null, relevance: Relevance): AskedValue | null {
  const holds = askedValueTest(question, typed);
  if (holds === null || typed === null) return null;
  const groups = typeWordGroups(relevance, typed);
  return { holds, groups, terms: relevance.termsOf(TYPE_WORDS[typed].join(' ')) };
}

/** One retrieved passage as the decision model saw it. */
export interface JudgedPassage {
  hit: SearchHit;
  /** The IDF-weighted share of the question's content words it holds (with an embedder, close words count). */
  coverage: number;
  features: FeatureVector;
  /** The decision model's probability that the passage holds the answer: what `minRelevance` is compared with. */
  score: number;
}

/**
 * Judges each retrieved passage: its features (decision-features.ts) and the decision model's probability that it
 * holds the answer. With an embedding model, close words count in the coverage features; a reranker's verdict, where
 * it judged, is the score (`rerankedRelevance`). Shared by both engines; the calibration script records the features.
 */
export async function scorePassages(
  index: PassageIndex,
  groups: string[][],
  hits: SearchHit[],
  retrieval: Pick<Retrieval, 'judgement' | 'languages' | 'since'> | undefined,
  question: {
    space: string;
    text: string;
    kind: QuestionKind;
    followUp?: boolean;
    typed?: AnswerType | null;
    /** The question that says how precisely the value is asked (a fragment's antecedent, `ellipsisOf`). */
    valueQuestion?: string;
  },
  model: DecisionModel = DECISION_MODEL,
): Promise<{ relevance: Relevance; scored: JudgedPassage[] }> {
  // The space's own statistics: counted over the whole index, another tenant's documents would move this space's
  // coverage, its decision and its `relevancia`.
  const idf = await index.idf(groups, question.space, retrieval?.since);
  // Weighed as the question says them, matched also where a passage says what a retrieved one glosses them as.
  const glossed = withGlosses(
    groups,
    hits.map((h) => h.text),
  );
  const relevance = new Relevance(glossed, contextWeighted(glossed, idf, question), retrieval?.languages);
  // A follow-up is judged on two readings, and a passage answers it when it answers either: its own words first and
  // the earlier turns' as the scene ("¿y los sábados?" after the weekday hours), or the whole question it makes with
  // them ("¿cuántas baterías trae ese?" asks about the drill named two turns before). Which unit answers always
  // favours its own words (`relevance`).
  const readings = question.followUp ? [relevance, new Relevance(glossed, idf, retrieval?.languages)] : [relevance];
  const judgement = retrieval?.judgement;
  // With an embedding model, a question word close in meaning to the passage counts as covered.
  const asked = question.typed === undefined ? askedType(question.text, question.kind) : question.typed;
  // A word naming the kind of value asked ("¿Qué días…?") counts as found in a passage holding such a value, as a
  // word close in meaning does (with an embedding model, a question word close to the passage).
  const typeGroups = [...typeWordGroups(relevance, asked)];
  const close = hits.map((hit) => {
    const byModel = judgement?.closeWords?.get(hit.id);
    if (typeGroups.length === 0 || !holdsType(`${hit.headings.join(' ')} ${hit.text}`, asked!)) return byModel;
    return new Set([...(byModel ?? []), ...typeGroups]);
  });
  const coverageBy = (r: Relevance) =>
    hits.map((hit, i) => r.coverage(r.termsOf(`${hit.headings.join(' ')} ${hit.text}`), close[i]));
  const coverage = coverageBy(relevance);
  const absent = await index.absentGroups(groups, question.space, retrieval?.since);
  const judged = readings.map((r) => {
    const features = decisionFeatures({
      question: question.text,
      relevance: r,
      asked,
      hits,
      coverage: r === relevance ? coverage : coverageBy(r),
      close,
      absent,
      groups,
      valueQuestion: question.valueQuestion,
    });
    return features.map((f) => ({ features: f, probability: answerProbability(model, f) }));
  });
  const scored = hits.map((hit, i) => {
    const best = judged.map((j) => j[i]!).reduce((a, b) => (b.probability > a.probability ? b : a));
    return {
      hit,
      coverage: coverage[i]!,
      features: best.features,
      score: rerankedRelevance(hit.id, judgement) ?? best.probability,
    };
  });
  return { relevance, scored };
}

/** The content-word groups of a question, as `scorePassages` expects them. */
export const contentGroups = (question: string): string[][] => queryTermGroups(contentQuestion(question));

/** A row's text naming its table only the first time the answer quotes that table. */
function nameTableOnce(row: Candidate, named: Set<string>): string {
  const table = row.hit.headings[row.hit.headings.length - 1];
  if (table === undefined) return row.text;
  if (!named.has(table)) {
    named.add(table);
    return row.text;
  }
  return row.text.replace(tableSource(table), tableSource(null));
}

/** Units an answer takes on their score alone; a further one must add something (see `addsToAnswer`). */
const FREE_UNITS = 2;
/** Share of the best unit's score a second unit must reach, and a further one (which must also add something). */
const SECOND_UNIT_SHARE = 0.6;
const FURTHER_UNIT_SHARE = 0.7;

/** What the composer knows of what a question asks, to tell an answer from filler. */
interface Asked {
  kind: QuestionKind;
  relevance: Relevance;
  /** The value asked for (a number, a time…), null when none. */
  value: AskedValue | null;
}

/** Whether a unit holds what the question asks for: the asked value, or the shape of answer (a command, a path…). */
const holdsAsked = (candidate: Candidate, asked: Asked): boolean =>
  hasAnswerShape(asked.kind, candidate) || (asked.value?.holds(candidate.text) ?? false);

/** Whether two units are rows of one table (one section of one document). */
const sameTable = (a: Candidate, b: Candidate): boolean =>
  a.unit.kind === 'table-row' &&
  b.unit.kind === 'table-row' &&
  a.hit.documentId === b.hit.documentId &&
  a.hit.headings.join('\u0000') === b.hit.headings.join('\u0000');

/** The question's content words a unit says, by group. */
const groupsSaid = (candidate: Candidate, relevance: Relevance): Set<number> =>
  relevance.groupsIn(relevance.termsOf(candidate.text));

/** Whether a unit says a question word the chosen units do not. */
function saysMore(candidate: Candidate, chosen: readonly Candidate[], relevance: Relevance): boolean {
  const covered = new Set(chosen.flatMap((o) => [...groupsSaid(o, relevance)]));
  return [...groupsSaid(candidate, relevance)].some((g) => !covered.has(g));
}

/**
 * Whether another row of a table adds to an answer that already quotes a row of it holding what the question asks
 * (the price, the hours): each row speaks of its own thing (a product, a day), so another row adds only a question
 * word the answer does not say yet, or a parallel answer, the same question words as the best unit with a value of
 * its own (the weekday hours and the Saturday hours of "¿Cuál es vuestro horario?"). Else it is another product of
 * the price list that shares a word with the question. A list question asks for several rows.
 */
function anotherRowAdds(candidate: Candidate, chosen: readonly Candidate[], asked: Asked): boolean {
  if (asked.kind === 'list' || saysMore(candidate, chosen, asked.relevance)) return true;
  const said = groupsSaid(candidate, asked.relevance);
  const best = groupsSaid(chosen[0]!, asked.relevance);
  return holdsAsked(candidate, asked) && said.size === best.size && [...said].every((g) => best.has(g));
}

/**
 * Whether a further unit adds to the units already chosen: the first FREE_UNITS on their score alone (but see
 * `anotherRowAdds`), a further one only with a question word they do not cover yet or the shape of answer the
 * question asks for (a command, a path, a condition); a list question's units always add. Otherwise the unit is
 * filler that only lengthens the answer.
 */
function addsToAnswer(candidate: Candidate, chosen: readonly Candidate[], asked: Asked): boolean {
  if (chosen.length === 0) return true;
  if (chosen.some((c) => sameTable(c, candidate) && holdsAsked(c, asked)))
    return anotherRowAdds(candidate, chosen, asked);
  if (chosen.length < FREE_UNITS) return true;
  if (candidate.score < chosen[0]!.score * FURTHER_UNIT_SHARE) return false;
  if (asked.kind === 'list' || hasAnswerShape(asked.kind, candidate)) return true;
  return saysMore(candidate, chosen, asked.relevance);
}

/** A question's retrieved passages, judged: what `compose` answers from. */
export interface JudgedQuestion {
  kind: QuestionKind;
  /** The kind of value asked for (`askedValue`). */
  typed: AnswerType | null;
  relevance: Relevance;
  judgement: ModelJudgement | null;
  /** Every retrieved passage (deeper than `passages` for a how-to or a where), in rank order. */
  pool: JudgedPassage[];
}

export class ExtractiveAnswerer implements Answerer {
  constructor(
    private readonly index: PassageIndex,
    private readonly retriever: Retriever,
    private readonly model: DecisionModel = DECISION_MODEL,
  ) {}

  async answer(asked: AnswerRequest): Promise<Answer> {
    const started = performance.now();
    const request = ownTurn(asked);
    const options = resolveOptions(request.options);
    let answer = await this.compose(request, await this.judge(request, options), options, started);
    // A question with a topic of its own is first asked alone; if the documents do not answer it so, it may still
    // be an unmarked follow-up ("¿Con cuánta anticipación las pido?"), asked again with the question it follows.
    if (
      !answer.found &&
      previousQuestion(request) &&
      hasWords(request.question) &&
      !dependsOnPrevious(request.question)
    ) {
      const retry = await this.compose(request, await this.judge(request, options, true), options, started);
      // Only an answer that speaks to this turn's own words: else it is the previous question's answer again.
      if (retry.found && saysOwnWords(request.question, retry.text)) answer = retry;
    }
    return answer;
  }

  /**
   * Retrieves the question's passages and judges each (`scorePassages`). A how-to or a where is also answered from
   * a command or a path a little further down the ranking (the question's words often meet the sentences around a
   * command better than the command's own section), so its pool is deeper; whether to answer is decided on the
   * first `passages`.
   */
  async judge(
    asked: AnswerRequest,
    options: AnswerOptions = resolveOptions(asked.options),
    asFollowUp = false,
  ): Promise<JudgedQuestion> {
    const request = ownTurn(asked);
    const kind = askedKind(request, asFollowUp);
    const typed = askedValue(request, kind);
    const depth = kind === 'procedure' || kind === 'location' ? options.passages * SHAPED_DEPTH : options.passages;
    const query = retrievalQuery(request, asFollowUp);
    const retrieval = await this.retriever.retrieve(request.space, contentQuestion(query), depth, request.documentIds);
    const followUp = query !== request.question;
    const { relevance, scored } = await scorePassages(
      this.index,
      retrieval.groups,
      retrieval.hits,
      retrieval,
      {
        space: request.space,
        text: request.question,
        kind,
        followUp,
        typed,
        valueQuestion: ellipsisOf(request) ?? undefined,
      },
      this.model,
    );
    return { kind, typed, relevance, judgement: retrieval.judgement, pool: scored };
  }

  /** The answer from judged passages: units of those reaching `minRelevance`, or the no-answer text. */
  async compose(
    request: AnswerRequest,
    judged: JudgedQuestion,
    options: AnswerOptions,
    started = performance.now(),
  ): Promise<Answer> {
    const { kind, typed, relevance, judgement, pool } = judged;
    const scored = pool.slice(0, options.passages);
    // Whether to answer is decided by the best passage; once answered, the units may come from any passage with at
    // least SUPPORT_SHARE of the threshold (the passage holding the value is often judged a little below the one
    // that echoes the question best).
    const answered = scored.some((s) => s.score >= options.minRelevance);
    const floor = options.minRelevance * SUPPORT_SHARE;
    const relevant: JudgedPassage[] = answered ? scored.filter((s) => s.score >= floor) : [];
    const deeper = answered ? pool.slice(options.passages).filter((s) => s.score >= floor) : [];
    const notFound = (): Answer => ({
      text: options.noAnswerText,
      found: false,
      engine: 'extractive',
      model: null,
      sources: [],
      usage: { passages: scored.length, promptTokens: 0, completionTokens: 0, ms: performance.now() - started },
    });
    if (relevant.length === 0) return notFound();

    const asked = askedName(request.question);
    // A fragment ("¿y los sábados?") asks for the value as precisely as the question it swaps the topic of did.
    const value = askedValueOf(ellipsisOf(request) ?? request.question, typed, relevance);
    relevant.push(...(await this.announcedContinuations(request.space, relevant)));
    // With an embedding model, a word close in meaning to the question's counts for the unit that says it.
    const close = await this.unitCloseWords(
      [...relevant, ...deeper].map((s) => s.hit),
      judgement,
    );
    const closeIn = (hit: SearchHit) =>
      close.has(hit.id) ? (position: number) => close.get(hit.id)![position] : undefined;
    // Units are weighed by their passage's coverage of the question (how much of it the passage's context adds),
    // not by the decision's probability: once a passage is relevant, its units compete on what they say.
    // A word the question says plainly and a unit only negated ("instalada" / "no instalada") is not covered there.
    const questionNegated = kind === 'yes-no' ? null : negatedGroups(request.question, relevance);
    const twoParts = asksTwoThings(request.question);
    const context = (hit: SearchHit) => ({ asked, closeOf: closeIn(hit), value, questionNegated, twoParts });
    const candidates = relevant.flatMap(({ hit, coverage }) =>
      passageCandidates(hit, coverage, relevance, kind, context(hit)),
    );
    for (const { hit, coverage } of deeper) {
      candidates.push(
        ...passageCandidates(hit, coverage, relevance, kind, context(hit)).filter((c) => hasAnswerShape(kind, c)),
      );
    }
    if (candidates.length === 0) return notFound();
    candidates.sort((a, b) => b.score - a.score);

    const chosen: Candidate[] = [];
    const chosenWords: Set<string>[] = [];
    let length = 0;
    for (const c of candidates) {
      if (chosen.length >= options.maxSentences) break;
      if (chosen.length > 0 && c.score < chosen[0]!.score * SECOND_UNIT_SHARE) break;
      // Units are never cut: one that does not fit is left out (the first may run to twice the bound).
      if (length + c.text.length > (chosen.length ? options.maxChars : options.maxChars * 2)) continue;
      // The same sentence often appears in two documents (HTML and PDF of one manual), and an introducing
      // sentence may be chosen with its code: say each once. Rows are compared by their cells: quoted with the
      // same column names, two rows of one table ("Sábados: 10:00–14:00", "Lunes a viernes: 10:00–14:00 y…")
      // would look alike.
      const w = new Set(words(c.unit.kind === 'table-row' ? c.unit.text : c.text));
      if (chosenWords.some((o) => overlap(o, w) > 0.8)) continue;
      if (chosen.some((o) => o.hit.id === c.hit.id && o.covers.some((p) => c.covers.includes(p)))) continue;
      if (!addsToAnswer(c, chosen, { kind, relevance, value })) continue;
      chosen.push(c);
      chosenWords.push(w);
      length += c.text.length + 1;
    }
    // Better one whole unit over the length bound than a cut fragment or a refusal of an answerable question.
    if (chosen.length === 0) chosen.push(candidates[0]!);
    // Read in document order: by passage rank, then position inside the passage.
    chosen.sort((a, b) => a.hit.rank - b.hit.rank || a.unit.position - b.unit.position);

    const sources: AnswerSource[] = [];
    const scoreOf = new Map(pool.map((p) => [p.hit.id, p.score]));
    const numberOf = new Map<number, number>();
    // A table is named once: later rows quoted from it say only "según la tabla".
    const namedTables = new Set<string>();
    const parts = chosen.map((c) => {
      const text = c.unit.kind === 'table-row' ? nameTableOnce(c, namedTables) : c.text;
      let n = numberOf.get(c.hit.id);
      if (n === undefined) {
        n = sources.length + 1;
        numberOf.set(c.hit.id, n);
        sources.push(toSource(c.hit, n, scoreOf.get(c.hit.id) ?? 0, c.hit.text));
      }
      return options.citations ? cite(text, n) : text;
    });
    // Then the other relevant passages, so a client sees every document that was considered: up to `passages` in
    // all (a list's continuation joins the relevant ones to be quoted, not to lengthen the list past what was asked).
    for (const { hit, score } of relevant) {
      if (sources.length >= options.passages) break;
      if (!numberOf.has(hit.id)) sources.push(toSource(hit, sources.length + 1, score, hit.text, false));
    }
    return {
      text: parts.join(' ').replace(/ \n/g, '\n').trim(),
      found: true,
      engine: 'extractive',
      model: null,
      sources,
      usage: { passages: scored.length, promptTokens: 0, completionTokens: 0, ms: performance.now() - started },
    };
  }

  /**
   * A relevant passage ending in a sentence that announces what follows ("…desde el primer año:") is continued by
   * the next passage of its document, where the chunker put the table or list it announces (a table's rows form
   * passages of their own): that passage lends its units too, at the announcing passage's coverage.
   */
  private async announcedContinuations(space: string, relevant: readonly JudgedPassage[]): Promise<JudgedPassage[]> {
    const have = new Set(relevant.map((p) => p.hit.id));
    const out: JudgedPassage[] = [];
    for (const p of relevant) {
      const last = passageUnits(p.hit.text).at(-1);
      if (!last || last.kind !== 'sentence' || !/:\s*$/.test(last.text) || have.has(p.hit.id + 1)) continue;
      const next = await this.index.passage(space, p.hit.id + 1);
      if (!next || next.documentId !== p.hit.documentId || next.ord !== p.hit.ord + 1) continue;
      out.push({ ...p, hit: { ...next, bm25: 0, score: 0, rank: p.hit.rank } });
      have.add(next.id);
    }
    return out;
  }

  /**
   * Per passage id, the question's word groups close in meaning to each of its units (by position), for the
   * passages where the embedding model found some: the passage's vector says a close word is somewhere in it, the
   * units' own vectors say where. One embedding call for at most MAX_UNITS_EMBEDDED units; none without a model.
   */
  private async unitCloseWords(
    hits: SearchHit[],
    judgement: ModelJudgement | null,
  ): Promise<Map<number, Set<number>[]>> {
    const out = new Map<number, Set<number>[]>();
    const words = judgement?.wordVectors;
    if (!judgement?.closeWords || !words) return out;
    const texts: string[] = [];
    const spans: [id: number, start: number, count: number][] = [];
    for (const hit of hits) {
      if (!judgement.closeWords.get(hit.id)?.size) continue;
      const units = passageUnits(hit.text).slice(0, MAX_UNITS_EMBEDDED - texts.length);
      spans.push([hit.id, texts.length, units.length]);
      texts.push(...units.map((u) => u.text));
    }
    const perUnit = await this.retriever.closeWordsOf(texts, words);
    if (!perUnit) return out;
    for (const [id, start, count] of spans) out.set(id, perUnit.slice(start, start + count));
    return out;
  }

  async *stream(request: AnswerRequest): AsyncIterable<AnswerEvent> {
    yield { type: 'progress', stage: 'retrieving' };
    const answer = await this.answer(request);
    // The answer is ready at once; it is sent as one delta per sentence so clients render it the same way.
    for (const piece of answer.text.split(/(?<=[.!?…]\s)/)) yield { type: 'delta', text: piece };
    yield { type: 'sources', sources: answer.sources };
    yield { type: 'done', answer };
  }
}
