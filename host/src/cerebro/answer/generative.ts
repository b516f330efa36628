// Answers with an OpenAI-compatible chat model from the same retrieved passages as the extractive engine, with the
// same result shape. The model is never called when no passage is relevant: the no-answer text is returned
// instead, so the model has no room to invent. Sources are the passages the model cited with [n] markers.
import type { PassageIndex, SearchHit } from '../index/passage-index.js';
import type { Retriever } from '../index/retriever.js';
import { askedKind, resolveOptions, scorePassages, searchText, toSource } from './extractive.js';
import type { ChatMessage, ChatUsage, OpenAiChatClient } from './openai-client.js';
import type { Answer, AnswerEvent, Answerer, AnswerOptions, AnswerRequest, AnswerSource } from './types.js';

interface Context {
  options: AnswerOptions;
  sources: AnswerSource[];
  messages: ChatMessage[];
  passages: number;
  started: number;
}

const LANGUAGE_NAMES: Record<string, string> = {
  es: 'español',
  en: 'inglés',
  pt: 'portugués',
  fr: 'francés',
  it: 'italiano',
  de: 'alemán',
};

export function buildMessages(request: AnswerRequest, options: AnswerOptions, hits: SearchHit[]): ChatMessage[] {
  const language = LANGUAGE_NAMES[options.language] ?? options.language;
  const system = [
    options.instructions.trim(),
    `Responde en ${language}, en como mucho ${options.maxChars} caracteres, usando SOLO la información de los fragmentos numerados que te doy.`,
    'Cita cada dato con el número de su fragmento entre corchetes, por ejemplo [1].',
    `Si los fragmentos no contienen la respuesta, responde exactamente: ${options.noAnswerText}`,
    'Copia las órdenes, el código y las rutas literalmente, entre comillas invertidas (`así`).',
    'No inventes datos, cifras, nombres ni enlaces.',
  ]
    .filter(Boolean)
    .join('\n');
  const context = hits
    .map(
      (h, i) =>
        `[${i + 1}] ${h.documentName}${h.page ? `, página ${h.page}` : ''}${h.headings.length ? `, ${h.headings.join(' › ')}` : ''}\n${h.text}`,
    )
    .join('\n\n');
  return [
    { role: 'system', content: system },
    ...(request.history ?? []).slice(-6).map((t) => ({ role: t.role, content: t.content })),
    { role: 'user', content: `Fragmentos:\n\n${context}\n\nPregunta: ${request.question}` },
  ];
}

/**
 * The sources the answer cites ([n]) first, then the other offered passages marked `cited: false`; numbers stay
 * those of the prompt, which the text uses. When the model cited none, every offered passage counts as cited.
 */
function citedSources(text: string, offered: AnswerSource[]): AnswerSource[] {
  const cited = new Set([...text.matchAll(/\[(\d{1,2})\]/g)].map((m) => Number(m[1])));
  const picked = offered.filter((s) => cited.has(s.n));
  if (picked.length === 0) return offered;
  return [...picked, ...offered.filter((s) => !cited.has(s.n)).map((s) => ({ ...s, cited: false }))];
}

export class GenerativeAnswerer implements Answerer {
  constructor(
    private readonly index: PassageIndex,
    private readonly retriever: Retriever,
    private readonly client: OpenAiChatClient,
  ) {}

  private async prepare(request: AnswerRequest): Promise<Context> {
    const started = performance.now();
    const options = resolveOptions(request.options);
    const retrieval = await this.retriever.retrieve(
      request.space,
      searchText(request),
      options.passages,
      request.documentIds,
    );
    const { scored } = await scorePassages(this.index, retrieval.groups, retrieval.hits, retrieval, {
      space: request.space,
      text: request.question,
      kind: askedKind(request),
    });
    const relevant = scored.filter((s) => s.score >= options.minRelevance);
    const sources = relevant.map((s, i) => toSource(s.hit, i + 1, s.score, s.hit.text));
    const messages = relevant.length
      ? buildMessages(
          request,
          options,
          relevant.map((s) => s.hit),
        )
      : [];
    return { options, sources, messages, passages: retrieval.hits.length, started };
  }

  private finish(ctx: Context, text: string, usage: ChatUsage | null): Answer {
    const trimmed = text.trim();
    const found =
      ctx.sources.length > 0 && trimmed !== '' && !trimmed.startsWith(ctx.options.noAnswerText.replace(/[.\s]+$/, ''));
    return {
      text: found ? trimmed : ctx.options.noAnswerText,
      found,
      engine: 'generative',
      model: this.client.model,
      sources: found ? citedSources(trimmed, ctx.sources) : [],
      usage: {
        passages: ctx.passages,
        promptTokens: usage?.promptTokens ?? 0,
        completionTokens: usage?.completionTokens ?? 0,
        ms: performance.now() - ctx.started,
      },
    };
  }

  private maxTokens(options: AnswerOptions): number {
    return Math.max(64, Math.ceil(options.maxChars / 3));
  }

  async answer(request: AnswerRequest): Promise<Answer> {
    const ctx = await this.prepare(request);
    if (ctx.messages.length === 0) return this.finish(ctx, '', null);
    const { text, usage } = await this.client.complete(ctx.messages, {
      maxTokens: this.maxTokens(ctx.options),
      signal: request.signal,
    });
    return this.finish(ctx, text, usage);
  }

  async *stream(request: AnswerRequest): AsyncIterable<AnswerEvent> {
    yield { type: 'progress', stage: 'retrieving' };
    const ctx = await this.prepare(request);
    if (ctx.messages.length === 0) {
      const answer = this.finish(ctx, '', null);
      yield { type: 'delta', text: answer.text };
      yield { type: 'sources', sources: [] };
      yield { type: 'done', answer };
      return;
    }
    yield { type: 'progress', stage: 'generating' };
    let text = '';
    let usage: ChatUsage | null = null;
    for await (const chunk of this.client.stream(ctx.messages, {
      maxTokens: this.maxTokens(ctx.options),
      signal: request.signal,
    })) {
      if (chunk.type === 'usage') usage = chunk.usage;
      else {
        text += chunk.text;
        yield { type: 'delta', text: chunk.text };
      }
    }
    const answer = this.finish(ctx, text, usage);
    yield { type: 'sources', sources: answer.sources };
    yield { type: 'done', answer };
  }
}
