// The embedded answering engine: no model, no external service. From the relevant passages it picks the units that
// answer the question best for its kind (a command with the sentence that introduces it for a how-to, a table row
// with its header, a defining sentence, a list item…) and composes them into a short answer that cites its sources.
// It only ever repeats text found in the documents, never cuts a unit short, and says so plainly when nothing
// relevant was found.
import type { PassageIndex, SearchHit } from '../index/passage-index.js';
import type { ModelJudgement, Retrieval, Retriever } from '../index/retriever.js';
import { queryTermGroups, words } from '../text/analyzer.js';
import { retrievalQuery } from './follow-up.js';
import { askedName } from './asked-name.js';
import { hasAnswerShape, passageCandidates, type Candidate } from './candidates.js';
import { passageUnits } from './passage-units.js';
import { contentQuestion } from './question-words.js';
import { questionKind, type QuestionKind } from './question-kind.js';
import { judgedRelevance, Relevance } from './relevance.js';
import { cite, tableSource } from './render.js';
import {
  DEFAULT_ANSWER_OPTIONS, type Answer, type AnswerEvent, type Answerer, type AnswerOptions, type AnswerRequest,
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

export const headingOf = (hit: { headings: string[] }): string | null => (hit.headings.length ? hit.headings.join(' › ') : null);

export function toSource(hit: SearchHit, n: number, score: number, excerpt: string, cited = true): AnswerSource {
  return {
    n, documentId: hit.documentId, document: hit.documentName, passageId: hit.id, page: hit.page,
    heading: headingOf(hit), score: Math.round(score * 1000) / 1000, bm25: Math.round(hit.bm25 * 1000) / 1000, excerpt,
    cited,
  };
}

export function resolveOptions(partial?: Partial<AnswerOptions>): AnswerOptions {
  return { ...DEFAULT_ANSWER_OPTIONS, ...Object.fromEntries(Object.entries(partial ?? {}).filter(([, v]) => v !== undefined)) };
}

/** The text retrieval searches for: the question (or follow-up with its antecedent) without question-form words. */
export const searchText = (request: AnswerRequest): string => contentQuestion(retrievalQuery(request));

/**
 * The relevance of each retrieved passage to a question: a 0–1 number, the IDF-weighted share of the question's
 * content words (question-form words and light verbs left out, see question-words.ts) found in the passage or its
 * heading path (with models, their judgement: see `judgedRelevance`). A passage counts as relevant when this reaches `minRelevance`. Shared by both engines; the
 * calibration script records it.
 */
export function scorePassages(
  index: PassageIndex, groups: string[][], hits: SearchHit[], retrieval?: Pick<Retrieval, 'judgement' | 'languages'>,
): { relevance: Relevance; scored: { hit: SearchHit; score: number }[] } {
  const relevance = new Relevance(groups, index.idf(groups), retrieval?.languages);
  const scored = hits.map((hit) => ({ hit, score: judgedRelevance(relevance, relevance.termsOf(`${hit.headings.join(' ')} ${hit.text}`), hit.id, retrieval?.judgement) }));
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

/**
 * Whether a further unit adds to the units already chosen: a question word they do not cover yet, or the shape of
 * answer the question asks for (a command, a path, a number, a condition). A list question asks for several things,
 * so its units always add. Otherwise the unit is filler that only lengthens the answer.
 */
function addsToAnswer(candidate: Candidate, chosen: readonly Candidate[], kind: QuestionKind, relevance: Relevance): boolean {
  if (chosen.length < FREE_UNITS) return true;
  if (candidate.score < chosen[0]!.score * FURTHER_UNIT_SHARE) return false;
  if (kind === 'list' || hasAnswerShape(kind, candidate)) return true;
  const covered = new Set(chosen.flatMap((o) => [...relevance.groupsIn(relevance.termsOf(o.text))]));
  return [...relevance.groupsIn(relevance.termsOf(candidate.text))].some((g) => !covered.has(g));
}

export class ExtractiveAnswerer implements Answerer {
  constructor(private readonly index: PassageIndex, private readonly retriever: Retriever) {}

  async answer(request: AnswerRequest): Promise<Answer> {
    const started = performance.now();
    const options = resolveOptions(request.options);
    const kind = questionKind(request.question);
    // A how-to or a where is also answered from a command or a path a little further down the ranking: the words
    // of the question often meet the sentences around a command better than the command's own section. Whether to
    // answer at all is still decided on the first `passages`.
    const depth = kind === 'procedure' || kind === 'location' ? options.passages * SHAPED_DEPTH : options.passages;
    const retrieval = await this.retriever.retrieve(request.space, searchText(request), depth);
    const { hits: pool, groups, judgement } = retrieval;
    const { relevance, scored: poolScored } = scorePassages(this.index, groups, pool, retrieval);
    const hits = pool.slice(0, options.passages);
    const scored = poolScored.slice(0, options.passages);
    const relevant = scored.filter((s) => s.score >= options.minRelevance);
    const deeper = poolScored.slice(options.passages).filter((s) => s.score >= options.minRelevance);
    const notFound = (): Answer => ({
      text: options.noAnswerText, found: false, engine: 'extractive', model: null, sources: [],
      usage: { passages: hits.length, promptTokens: 0, completionTokens: 0, ms: performance.now() - started },
    });
    if (relevant.length === 0) return notFound();

    const asked = askedName(request.question);
    // With an embedding model, a word close in meaning to the question's counts for the unit that says it.
    const close = await this.unitCloseWords([...relevant, ...deeper].map((s) => s.hit), judgement);
    const closeIn = (hit: SearchHit) => (close.has(hit.id) ? (position: number) => close.get(hit.id)![position] : undefined);
    const candidates = relevant.flatMap(({ hit, score }) => passageCandidates(hit, score, relevance, kind, asked, closeIn(hit)));
    for (const { hit, score } of deeper) {
      candidates.push(...passageCandidates(hit, score, relevance, kind, asked, closeIn(hit)).filter((c) => hasAnswerShape(kind, c)));
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
      // sentence may be chosen with its code: say each once.
      const w = new Set(words(c.text));
      if (chosenWords.some((o) => overlap(o, w) > 0.8)) continue;
      if (chosen.some((o) => o.hit.id === c.hit.id && o.covers.some((p) => c.covers.includes(p)))) continue;
      if (!addsToAnswer(c, chosen, kind, relevance)) continue;
      chosen.push(c);
      chosenWords.push(w);
      length += c.text.length + 1;
    }
    // Better one whole unit over the length bound than a cut fragment or a refusal of an answerable question.
    if (chosen.length === 0) chosen.push(candidates[0]!);
    // Read in document order: by passage rank, then position inside the passage.
    chosen.sort((a, b) => a.hit.rank - b.hit.rank || a.unit.position - b.unit.position);

    const sources: AnswerSource[] = [];
    const numberOf = new Map<number, number>();
    // A table is named once: later rows quoted from it say only "según la tabla".
    const namedTables = new Set<string>();
    const parts = chosen.map((c) => {
      const text = c.unit.kind === 'table-row' ? nameTableOnce(c, namedTables) : c.text;
      let n = numberOf.get(c.hit.id);
      if (n === undefined) {
        n = sources.length + 1;
        numberOf.set(c.hit.id, n);
        sources.push(toSource(c.hit, n, c.passageScore, c.hit.text));
      }
      return options.citations ? cite(text, n) : text;
    });
    // Then the other relevant passages, so a client sees every document that was considered.
    for (const { hit, score } of relevant) {
      if (!numberOf.has(hit.id)) sources.push(toSource(hit, sources.length + 1, score, hit.text, false));
    }
    return {
      text: parts.join(' ').replace(/ \n/g, '\n').trim(), found: true, engine: 'extractive', model: null, sources,
      usage: { passages: hits.length, promptTokens: 0, completionTokens: 0, ms: performance.now() - started },
    };
  }

  /**
   * Per passage id, the question's word groups close in meaning to each of its units (by position), for the
   * passages where the embedding model found some: the passage's vector says a close word is somewhere in it, the
   * units' own vectors say where. One embedding call for at most MAX_UNITS_EMBEDDED units; none without a model.
   */
  private async unitCloseWords(hits: SearchHit[], judgement: ModelJudgement | null): Promise<Map<number, Set<number>[]>> {
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
