// The embedded answering engine: no model, no external service. From the relevant passages it picks the units that
// answer the question best for its kind (a command with the sentence that introduces it for a how-to, a table row
// with its header, a defining sentence, a list item…) and composes them into a short answer that cites its sources.
// It only ever repeats text found in the documents, never cuts a unit short, and says so plainly when nothing
// relevant was found.
import type { PassageIndex, SearchHit } from '../index/passage-index.js';
import type { Retriever } from '../index/retriever.js';
import { queryTermGroups, words } from '../text/analyzer.js';
import { retrievalQuery } from './follow-up.js';
import { announces, passageUnits, type AnswerUnit } from './passage-units.js';
import { contentQuestion } from './question-words.js';
import { questionKind, type QuestionKind } from './question-kind.js';
import { Relevance } from './relevance.js';
import { cite, renderCodeWithIntro, renderRow } from './render.js';
import {
  DEFAULT_ANSWER_OPTIONS, type Answer, type AnswerEvent, type Answerer, type AnswerOptions, type AnswerRequest,
  type AnswerSource,
} from './types.js';

export { passageSentences } from './passage-units.js';

interface Candidate { hit: SearchHit; passageScore: number; unit: AnswerUnit; text: string; score: number; covers: number[] }

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
 * heading path. A passage counts as relevant when this reaches `minRelevance`. Shared by both engines; the
 * calibration script records it.
 */
export function scorePassages(index: PassageIndex, groups: string[][], hits: SearchHit[]): { relevance: Relevance; scored: { hit: SearchHit; score: number }[] } {
  const relevance = new Relevance(groups, index.idf(groups));
  const scored = hits.map((hit) => ({ hit, score: relevance.coverage(Relevance.termsOf(`${hit.headings.join(' ')} ${hit.text}`)) }));
  return { relevance, scored };
}

/** The content-word groups of a question, as `scorePassages` expects them. */
export const contentGroups = (question: string): string[][] => queryTermGroups(contentQuestion(question));

const DEFINES = /\s(es|son|significa|consiste|is|are|means)\s/i;
const HAS_PATH = /(^|[\s«"'`(])(\/[\w.@-]+)+\/?|\b[A-Z]:\\|\b[\w-]+\.(conf|cfg|ini|list|json|ya?ml|toml|txt|sh)\b/;
const CODE_LIKE = /`[^`]+`/;
const COMMAND_COLUMN = /orden|comando|command|sintaxis|syntax|uso|usage|ejemplo|example/i;
/** Final punctuation of a whole sentence; a short unit without it (a title, a caption) is a fragment, not an answer. */
const ENDS_SENTENCE = /[.!?…:;»"”')\]`]$/;
const TITLE_MAX = 100;

/** Extra weight a unit earns for being the shape of answer the question asks for. */
function kindBonus(kind: QuestionKind, unit: AnswerUnit, text: string): number {
  // A row keyed by a command (not by a package or file name that the source also set as code).
  const codeRow = unit.kind === 'table-row' && CODE_LIKE.test(unit.cells?.[0] ?? '') && COMMAND_COLUMN.test(unit.header?.[0] ?? 'orden');
  switch (kind) {
    case 'procedure':
      if (unit.kind === 'code') return 0.3;
      if (codeRow) return 0.25;
      if (unit.kind === 'list-item') return 0.1;
      return CODE_LIKE.test(text) ? 0.1 : 0;
    case 'location':
      return HAS_PATH.test(text) || unit.kind === 'code' ? 0.2 : 0;
    case 'quantity':
      return /\d/.test(text) ? 0.15 : 0;
    case 'list':
      return unit.kind === 'list-item' ? 0.2 : unit.kind === 'table-row' ? 0.1 : 0;
    case 'definition':
      return unit.kind === 'table-row' ? -0.1 : 0; // a defining sentence reads better than a row naming the thing
    default:
      return 0;
  }
}

/** Longest list (announcing sentence plus items) quoted whole. */
const LIST_MAX = 500;

const introduces = (sentence: string) => /:\s*$/.test(sentence) || announces(sentence);

/**
 * The whole list a unit belongs to, read as one answer: the sentence that announces it (when there is one) and its
 * items in order, "Para X: paso uno; paso dos; paso tres." Null when the list is too long to quote whole.
 */
function wholeList(units: AnswerUnit[], position: number): { text: string; covers: number[] } | null {
  let start = position;
  while (units[start - 1]?.kind === 'list-item') start--;
  let end = position;
  while (units[end + 1]?.kind === 'list-item') end++;
  const items = units.slice(start, end + 1);
  const lead = units[start - 1]?.kind === 'sentence' && introduces(units[start - 1]!.text) ? units[start - 1] : undefined;
  const body = items.map((u) => u.text.replace(/[.;,]\s*$/, '')).join('; ');
  const text = lead ? `${lead.text.replace(/:?\s*$/, ':')} ${body}.` : `${body}.`;
  if (text.length > LIST_MAX) return null;
  return { text, covers: [...(lead ? [lead.position] : []), ...items.map((u) => u.position)] };
}

/**
 * A short title-like sentence or one that announces more ("lo siguiente:") is read with what follows: the next
 * sentence, or the list it announces.
 */
function withContinuation(sentence: AnswerUnit, units: AnswerUnit[]): { text: string; covers: number[] } {
  const alone = { text: sentence.text, covers: [sentence.position] };
  const next = units[sentence.position + 1];
  if (!next || !(introduces(sentence.text) || sentence.text.length < 40)) return alone;
  if (next.kind === 'sentence') return next.text.length > 300 ? alone : { text: `${sentence.text} ${next.text}`, covers: [sentence.position, next.position] };
  if (next.kind !== 'list-item' || !introduces(sentence.text)) return alone;
  return wholeList(units, next.position) ?? alone;
}

export class ExtractiveAnswerer implements Answerer {
  constructor(private readonly index: PassageIndex, private readonly retriever: Retriever) {}

  /** Bonus for a sentence whose subject is the question's topic (a topic word among its first words). */
  private leadBonus(sentence: string, relevance: Relevance, definitional: boolean): number {
    const head = Relevance.termsOf(sentence.split(/\s+/).slice(0, 4).join(' '));
    if (relevance.coverage(head) === 0) return 0;
    return definitional && DEFINES.test(sentence) ? 0.15 : 0.05;
  }

  /** The candidate answers of one relevant passage. */
  private candidates(hit: SearchHit, passageScore: number, relevance: Relevance, kind: QuestionKind): Candidate[] {
    const units = passageUnits(hit.text);
    const introduced = new Set(units.filter((u) => u.intro !== undefined).map((u) => u.intro!));
    const table = hit.headings[hit.headings.length - 1] ?? null;
    const out: Candidate[] = [];
    for (const unit of units) {
      let text: string;
      let terms: string;
      let covers = [unit.position];
      if (unit.kind === 'code') {
        const intro = unit.intro !== undefined ? units[unit.intro]!.text : undefined;
        text = renderCodeWithIntro(unit.text, intro);
        terms = `${table ?? ''} ${intro ?? ''} ${unit.text}`;
        if (unit.intro !== undefined) covers = [unit.intro, unit.position];
      } else if (unit.kind === 'table-row') {
        text = renderRow(unit.cells ?? [unit.text], unit.header, table);
        terms = `${table ?? ''} ${(unit.header ?? []).join(' ')} ${unit.text}`;
      } else if (unit.kind === 'sentence') {
        // An introducing sentence is answered by its code candidate, which quotes both.
        if (introduced.has(unit.position) || unit.text.length < 12) continue;
        ({ text, covers } = withContinuation(unit, units));
        if (text === unit.text && unit.text.length < TITLE_MAX && !ENDS_SENTENCE.test(unit.text)) continue;
        terms = unit.text;
      } else {
        // Steps and options read best whole, in order, with the sentence that announces them.
        const list = kind === 'procedure' || kind === 'list' ? wholeList(units, unit.position) : null;
        ({ text, covers } = list ?? { text: unit.text, covers });
        terms = unit.text;
      }
      const own = relevance.coverage(Relevance.termsOf(terms));
      if (own === 0) continue;
      // Judged on its own words, helped a little by its passage (heading context) and rank; a very long sentence
      // (a run of text the extractor could not structure) reads badly as an answer and is held back.
      const lengthPenalty = unit.kind === 'sentence' && unit.text.length > 400 ? 0.5 : 1;
      const lead = unit.kind === 'sentence' ? this.leadBonus(unit.text, relevance, kind === 'definition') : 0;
      const score = (own + 0.25 * passageScore + 0.05 / hit.rank + lead + kindBonus(kind, unit, text)) * lengthPenalty;
      out.push({ hit, passageScore, unit, text, score, covers });
    }
    return out;
  }

  async answer(request: AnswerRequest): Promise<Answer> {
    const started = performance.now();
    const options = resolveOptions(request.options);
    const { hits, groups } = await this.retriever.retrieve(request.space, searchText(request), options.passages);
    const { relevance, scored } = scorePassages(this.index, groups, hits);
    const relevant = scored.filter((s) => s.score >= options.minRelevance);
    const notFound = (): Answer => ({
      text: options.noAnswerText, found: false, engine: 'extractive', model: null, sources: [],
      usage: { passages: hits.length, promptTokens: 0, completionTokens: 0, ms: performance.now() - started },
    });
    if (relevant.length === 0) return notFound();

    const kind = questionKind(request.question);
    const candidates = relevant.flatMap(({ hit, score }) => this.candidates(hit, score, relevance, kind));
    if (candidates.length === 0) return notFound();
    candidates.sort((a, b) => b.score - a.score);

    const chosen: Candidate[] = [];
    const chosenWords: Set<string>[] = [];
    let length = 0;
    for (const c of candidates) {
      if (chosen.length >= options.maxSentences) break;
      if (chosen.length > 0 && c.score < chosen[0]!.score * 0.6) break;
      // Units are never cut: one that does not fit is left out (the first may run to twice the bound).
      if (length + c.text.length > (chosen.length ? options.maxChars : options.maxChars * 2)) continue;
      // The same sentence often appears in two documents (HTML and PDF of one manual), and an introducing
      // sentence may be chosen with its code: say each once.
      const w = new Set(words(c.text));
      if (chosenWords.some((o) => overlap(o, w) > 0.8)) continue;
      if (chosen.some((o) => o.hit.id === c.hit.id && o.covers.some((p) => c.covers.includes(p)))) continue;
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
    const parts = chosen.map((c) => {
      let n = numberOf.get(c.hit.id);
      if (n === undefined) {
        n = sources.length + 1;
        numberOf.set(c.hit.id, n);
        sources.push(toSource(c.hit, n, c.passageScore, c.hit.text));
      }
      return options.citations ? cite(c.text, n) : c.text;
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

  async *stream(request: AnswerRequest): AsyncIterable<AnswerEvent> {
    yield { type: 'progress', stage: 'retrieving' };
    const answer = await this.answer(request);
    // The answer is ready at once; it is sent as one delta per sentence so clients render it the same way.
    for (const piece of answer.text.split(/(?<=[.!?…]\s)/)) yield { type: 'delta', text: piece };
    yield { type: 'sources', sources: answer.sources };
    yield { type: 'done', answer };
  }
}
