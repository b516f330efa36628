import { validationError, type JsonSchema } from '@cerebro/sdk';
import type { ChatTurn } from '../cerebro/index.js';
import { arrayOf, nullable, objectSchema } from '../http/response-schemas.js';
import { ANSWER_SCHEMA } from './wire-schemas.js';

/** Longest question, as on `POST /rag/{espacio}/conversations`. */
const MAX_QUESTION = 4000;

const CONTENT_PART = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string', maxLength: 64 }, text: { type: 'string', maxLength: 100_000 } },
} as const;

/**
 * The request of OpenAI's chat completions. Only what Cerebro acts on is typed; the other parameters those clients
 * send (temperature, max_tokens, top_p, user, …) are accepted and ignored: the space's configuration decides how
 * it answers, as on the contract's question route.
 */
export const CHAT_REQUEST_SCHEMA = {
  type: 'object',
  required: ['model', 'messages'],
  properties: {
    model: { type: 'string', minLength: 1, maxLength: 200, description: 'El id del espacio que responde.' },
    messages: {
      type: 'array',
      minItems: 1,
      maxItems: 200,
      description:
        'La conversación. El último mensaje, de `user`, es la pregunta; los mensajes `user` y `assistant` anteriores son su historia. Los de `system`, `developer` y `tool` se ignoran: responde con las instrucciones del espacio.',
      items: {
        type: 'object',
        required: ['role'],
        properties: {
          role: { enum: ['system', 'developer', 'user', 'assistant', 'tool'] },
          content: {
            oneOf: [
              { type: 'string', maxLength: 100_000 },
              { type: 'array', maxItems: 50, items: CONTENT_PART },
              { type: 'null' },
            ],
            description: 'Texto, o partes `{type: "text", text}` (las de otros tipos se ignoran).',
          },
          name: { type: 'string', maxLength: 200 },
        },
      },
    },
    stream: { type: 'boolean', default: false, description: 'true: la respuesta en trozos (server-sent events).' },
    stream_options: {
      type: 'object',
      properties: { include_usage: { type: 'boolean', description: 'Un último trozo con `usage`.' } },
    },
  },
} as const;

/** A chat request's messages as the engine takes them: the question and the turns before it. */
export interface ChatQuestion {
  question: string;
  history: ChatTurn[];
}

type Message = { role: string; content?: unknown };

/** The text of a message: a string, or its `text` parts joined. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((p: { type?: unknown; text?: unknown }) => p.type === 'text' && typeof p.text === 'string')
    .map((p: { text: string }) => p.text)
    .join('\n');
}

/** The question (the last message, from `user`) and its history; anything else is a 422 naming the message. */
export function chatQuestion(messages: readonly Message[]): ChatQuestion {
  const last = messages.length - 1;
  const question = textOf(messages[last]!.content).trim();
  const problem = (msg: string, type: string) => validationError([{ loc: ['body', 'messages', last], msg, type }]);
  if (messages[last]!.role !== 'user')
    throw problem('El último mensaje debe ser del usuario (`user`): es la pregunta.', 'value_error');
  if (!question) throw problem('La pregunta no tiene texto.', 'string_too_short');
  if (question.length > MAX_QUESTION)
    throw problem(`La pregunta admite como máximo ${MAX_QUESTION} caracteres.`, 'string_too_long');
  const history: ChatTurn[] = [];
  for (const m of messages.slice(0, last)) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    const content = textOf(m.content).trim();
    if (content) history.push({ role: m.role, content });
  }
  return { question, history };
}

const USAGE_SCHEMA = objectSchema({
  prompt_tokens: { type: 'integer' },
  completion_tokens: { type: 'integer' },
  total_tokens: { type: 'integer' },
});

const EXTENSION: JsonSchema = {
  ...ANSWER_SCHEMA,
  description:
    'Extensión de Cerebro: la respuesta como la da `POST /rag/{espacio}/conversations` (conversación, `encontrada`, `fuentes`, caché, créditos).',
};

/** The answer of `POST /v1/chat/completions` without `stream`. */
export const CHAT_COMPLETION_SCHEMA = objectSchema({
  id: { type: 'string' },
  object: { enum: ['chat.completion'] },
  created: { type: 'integer', description: 'Segundos desde 1970.' },
  model: { type: 'string', description: 'El id del espacio.' },
  choices: arrayOf(
    objectSchema({
      index: { type: 'integer' },
      message: objectSchema({
        role: { enum: ['assistant'] },
        content: { type: 'string' },
        refusal: nullable('string'),
      }),
      finish_reason: { enum: ['stop'] },
      logprobs: { type: 'null' },
    }),
  ),
  usage: USAGE_SCHEMA,
  cerebro: EXTENSION,
});

/** `GET /v1/models`. */
export const MODEL_LIST_SCHEMA = objectSchema({
  object: { enum: ['list'] },
  data: arrayOf(
    objectSchema({
      id: { type: 'string', description: 'El id del espacio: el `model` de las peticiones.' },
      object: { enum: ['model'] },
      created: { type: 'integer' },
      owned_by: { type: 'string', description: 'El nombre del espacio.' },
    }),
  ),
});

/** OpenAI's usage from the engine's token counts (0 for the extractive engine, which calls no model). */
export const usageView = (uso: { tokens_prompt: number; tokens_respuesta: number }) => ({
  prompt_tokens: uso.tokens_prompt,
  completion_tokens: uso.tokens_respuesta,
  total_tokens: uso.tokens_prompt + uso.tokens_respuesta,
});
