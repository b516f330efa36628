// The embedded answering engine: no model, no external service. It picks, from the best passages, the sentences
// that cover most of the question and composes them into a short answer that cites its sources. It only ever
// repeats sentences found in the documents, and says so plainly when nothing relevant was found.
import type { PassageIndex, SearchHit } from '../index/passage-index.js';
import type { Retriever } from '../index/retriever.js';
import { words } from '../text/analyzer.js';
import { splitSentences } from '../text/sentences.js';
import { retrievalQuery } from './follow-up.js';
import { Relevance } from './relevance.js';
import {
  DEFAULT_ANSWER_OPTIONS, type Answer, type AnswerEvent, type Answerer, type AnswerOptions, type AnswerRequest,
  type AnswerSource,
} from './types.js';

interface Candidate { hit: SearchHit; passageScore: number; sentence: string; position: number; score: number }

/** Share of the smaller set's words found in the other set. */
function overlap(a: Set<string>, b: Set<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 0;
  let n = 0;
  for (const x of small) if (large.has(x)) n++;
  return n / small.size;
}

/** A sentence that announces what follows ("lo siguiente…", a colon, a title) is useless without the next one. */
function withContinuation(sentence: string, next: string | undefined): string {
  if (!next || next.length > 300) return sentence;
  const announces = /:\s*$/.test(sentence) || /\b(lo siguiente|los siguientes|las siguientes|a continuaci[oó]n|the following|as follows)\b/i.test(sentence);
  // A short fragment is usually a title ("Horario de atención."): what it introduces is the answer.
  const title = sentence.length < 40;
  return announces || title ? `${sentence} ${next}` : sentence;
}

const COMMAND_LINE = /^[$#]\s/;

/** Paragraphs of a passage with hard line wraps (PDF, plain text) rejoined into sentences. */
export function passageSentences(text: string): string[] {
  const paragraphs: string[] = [];
  let current = '';
  const flush = () => {
    if (current) paragraphs.push(current);
    current = '';
  };
  const lines = text.split('\n').map((l) => l.trim());
  lines.forEach((l, i) => {
    if (!l) { flush(); return; }
    // Shell prompts and comments ("$ tar …", "# apt …") are commands: each stands alone.
    if (COMMAND_LINE.test(l)) { flush(); paragraphs.push(l); return; }
    current = current ? `${current} ${l}` : l;
    const next = lines[i + 1] ?? '';
    // A line ends its paragraph at final punctuation, or when it is a short label ("Nota", a table title)
    // followed by a capitalised line: wrapped lines of running text do not look like that.
    const label = !current.includes(' ') || (current.length < 40 && /^\p{Lu}/u.test(next));
    if (/[.!?:;…]$/.test(l) || label || COMMAND_LINE.test(next)) flush();
  });
  flush();
  return paragraphs.flatMap((p) => splitSentences(p));
}

export const headingOf = (hit: { headings: string[] }): string | null => (hit.headings.length ? hit.headings.join(' › ') : null);

export function toSource(hit: SearchHit, n: number, score: number, excerpt: string): AnswerSource {
  return {
    n, documentId: hit.documentId, document: hit.documentName, passageId: hit.id, page: hit.page,
    heading: headingOf(hit), score: Math.round(score * 1000) / 1000, bm25: Math.round(hit.bm25 * 1000) / 1000, excerpt,
  };
}

/** Puts a citation marker before the sentence's final punctuation: "… en /etc/apt [2]." */
function cite(sentence: string, n: number): string {
  const m = /([.!?…]+["»”)]*)$/.exec(sentence);
  return m ? `${sentence.slice(0, m.index)} [${n}]${m[1]}` : `${sentence} [${n}].`;
}

export function resolveOptions(partial?: Partial<AnswerOptions>): AnswerOptions {
  return { ...DEFAULT_ANSWER_OPTIONS, ...Object.fromEntries(Object.entries(partial ?? {}).filter(([, v]) => v !== undefined)) };
}

/** Relevant passages of a retrieval with their 0–1 relevance, best first. Shared with the generative engine. */
export function scorePassages(index: PassageIndex, groups: string[][], hits: SearchHit[]): { relevance: Relevance; scored: { hit: SearchHit; score: number }[] } {
  const relevance = new Relevance(groups, index.idf(groups));
  const scored = hits.map((hit) => ({ hit, score: relevance.coverage(Relevance.termsOf(`${hit.headings.join(' ')} ${hit.text}`)) }));
  return { relevance, scored };
}

/** "¿Qué es X?", "¿Qué son…?", "What is…?": the best answer is a sentence that starts with X and defines it. */
const DEFINITION_QUESTION = /^\s*¿?\s*(qu[eé]|what)\s+(es|son|significa|is|are|does)\b/i;
const DEFINES = /\s(es|son|significa|consiste|is|are|means)\s/i;

export class ExtractiveAnswerer implements Answerer {
  constructor(private readonly index: PassageIndex, private readonly retriever: Retriever) {}

  /** Bonus for a sentence whose subject is the question's topic (a topic word among its first words). */
  private leadBonus(sentence: string, relevance: Relevance, definitional: boolean): number {
    const head = Relevance.termsOf(sentence.split(/\s+/).slice(0, 4).join(' '));
    if (relevance.coverage(head) === 0) return 0;
    return definitional && DEFINES.test(sentence) ? 0.15 : 0.05;
  }

  async answer(request: AnswerRequest): Promise<Answer> {
    const started = performance.now();
    const options = resolveOptions(request.options);
    const { hits, groups } = await this.retriever.retrieve(request.space, retrievalQuery(request), options.passages);
    const { relevance, scored } = scorePassages(this.index, groups, hits);
    const relevant = scored.filter((s) => s.score >= options.minRelevance);
    const notFound = (): Answer => ({
      text: options.noAnswerText, found: false, engine: 'extractive', model: null, sources: [],
      usage: { passages: hits.length, promptTokens: 0, completionTokens: 0, ms: performance.now() - started },
    });
    if (relevant.length === 0) return notFound();

    const definitional = DEFINITION_QUESTION.test(request.question);
    const candidates: Candidate[] = [];
    for (const { hit, score: passageScore } of relevant) {
      const sentences = passageSentences(hit.text);
      sentences.forEach((sentence, position) => {
        if (sentence.length < 12) return;
        const own = relevance.coverage(Relevance.termsOf(sentence));
        if (own === 0) return;
        // Judged on its own words, helped a little by its passage (heading context) and rank; very long
        // "sentences" (tables, code) read badly as answers and are held back.
        const lengthPenalty = sentence.length > 400 || (sentence.match(/ \| /g)?.length ?? 0) >= 2 ? 0.5 : 1;
        const score = (own + 0.25 * passageScore + 0.05 / hit.rank + this.leadBonus(sentence, relevance, definitional)) * lengthPenalty;
        candidates.push({ hit, passageScore, sentence: withContinuation(sentence, sentences[position + 1]), position, score });
      });
    }
    if (candidates.length === 0) return notFound();
    candidates.sort((a, b) => b.score - a.score);

    const chosen: Candidate[] = [];
    const chosenWords: Set<string>[] = [];
    let length = 0;
    for (const c of candidates) {
      if (chosen.length >= options.maxSentences) break;
      if (chosen.length > 0 && c.score < candidates[0]!.score * 0.6) break;
      if (chosen.length > 0 && length + c.sentence.length > options.maxChars) continue;
      // The same sentence often appears in two documents (HTML and PDF of one manual): say it once.
      const w = new Set(words(c.sentence));
      if (chosenWords.some((o) => overlap(o, w) > 0.8)) continue;
      chosen.push(c);
      chosenWords.push(w);
      length += c.sentence.length + 1;
    }
    // Read in document order: by passage rank, then position inside the passage.
    chosen.sort((a, b) => a.hit.rank - b.hit.rank || a.position - b.position);

    const sources: AnswerSource[] = [];
    const numberOf = new Map<number, number>();
    const parts = chosen.map((c) => {
      let n = numberOf.get(c.hit.id);
      if (n === undefined) {
        n = sources.length + 1;
        numberOf.set(c.hit.id, n);
        sources.push(toSource(c.hit, n, c.passageScore, c.hit.text));
      }
      const text = c.sentence.length > options.maxChars ? `${c.sentence.slice(0, options.maxChars).replace(/\s+\S*$/, '')}…` : c.sentence;
      return options.citations ? cite(text, n) : text;
    });
    return {
      text: parts.join(' '), found: true, engine: 'extractive', model: null, sources,
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
