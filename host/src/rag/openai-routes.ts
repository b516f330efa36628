import type { DependencyContainer } from 'tsyringe';
import { apiError } from '@cerebro/sdk';
import type { OwnerCaller } from '../access/caller.js';
import { declareRoutes, hostRoutes, type HostRoute, type HostRouteContext } from '../http/route.js';
import { SseStream } from '../http/sse.js';
import { resolveToken } from '../kernel/resolve.js';
import { HostRootTokens } from '../kernel/root-tokens.js';
import { HostTokens } from '../kernel/tokens.js';
import {
  CHAT_COMPLETION_SCHEMA,
  CHAT_REQUEST_SCHEMA,
  MODEL_LIST_SCHEMA,
  chatQuestion,
  usageView,
  type ChatQuestion,
} from './openai-chat-wire.js';
import { streamAnswer, takeQuestionTurn } from './question-turn.js';
import { QUESTION_COST } from './rag-routes.js';
import type { CachedAnswer, QuestionToAnswer, RagService } from './rag-service.js';
import { answerView } from './wire.js';

/**
 * The OpenAI-compatible routes over a space's documents (as AnythingLLM offers for its workspaces): tools that
 * speak OpenAI's chat API use Cerebro by pointing their base URL at `/api/v1` with a Cerebro key, and `model`
 * naming the space. Answers come from the same engine, limits, credits and answer cache as
 * `POST /rag/{espacio}/conversations`.
 */
export const OPENAI_ROUTES = declareRoutes([
  {
    operationId: 'openai.chatCompletions',
    audit: false,
    method: 'POST',
    path: '/api/v1/chat/completions',
    access: 'space',
    spaceInBody: 'model',
    errorFormat: 'openai',
    permission: 'lee',
    credits: QUESTION_COST,
    idempotent: true,
    tag: 'openai',
    summary: 'Preguntar a un espacio con la API de chat de OpenAI',
    description: `\`model\` es el id del espacio (ver \`GET /v1/models\`); el último mensaje de \`messages\` es la pregunta y los anteriores (\`user\`/\`assistant\`) su historia, guardada como una conversación nueva del espacio. La respuesta va en \`choices[0].message.content\` y, entera (fuentes, \`encontrada\`, conversación, caché, créditos), en la extensión \`cerebro\`. Con \`stream: true\`, trozos \`chat.completion.chunk\` (\`data:\`), el último con \`finish_reason: "stop"\` y \`cerebro\`, y \`data: [DONE]\`; cerrar la conexión antes no cobra. Cuesta ${QUESTION_COST} crédito; una respuesta de la caché (solo preguntas sin historia) no cuesta nada. Los errores llevan además \`error\` con la forma de OpenAI. \`Idempotency-Key\` solo sin \`stream\`.`,
    requestSchema: CHAT_REQUEST_SCHEMA,
    responses: {
      '200': { description: 'La respuesta (o, con `stream`, el flujo de trozos).', schema: CHAT_COMPLETION_SCHEMA },
      '404': { description: 'El espacio de `model` no existe o la clave no lo alcanza.' },
    },
  },
  {
    operationId: 'openai.listModels',
    method: 'GET',
    path: '/api/v1/models',
    access: 'owner',
    errorFormat: 'openai',
    tag: 'openai',
    summary: 'Los espacios que alcanza la clave, como modelos de OpenAI',
    description: 'Cada espacio es un `model` que `POST /v1/chat/completions` acepta.',
    responses: { '200': { description: 'Los espacios alcanzables.', schema: MODEL_LIST_SCHEMA } },
  },
]);

type ChatContext = HostRouteContext<(typeof OPENAI_ROUTES)[0]>;

/** A chat request's question, history and cached answer (read once, for its price and its answer). */
interface AskedChat extends ChatQuestion {
  cached: CachedAnswer | null;
}

const unixSeconds = (iso: string | number) => Math.floor(new Date(iso).getTime() / 1000);

export function openAiRoutes(container: DependencyContainer, rag: RagService): HostRoute[] {
  const gate = resolveToken(container, HostTokens.QuestionGate);
  const keys = resolveToken(container, HostRootTokens.Keys);
  const asked = new WeakMap<object, Promise<AskedChat>>();
  const askedOf = (ctx: ChatContext): Promise<AskedChat> => {
    let chat = asked.get(ctx);
    if (!chat) {
      const q = chatQuestion(ctx.body.messages);
      // Only a question without history is answered from the cache, as a new conversation's first question is.
      chat = (
        q.history.length === 0 ? rag.cachedAnswer(ctx.space!.id, q.question, undefined) : Promise.resolve(null)
      ).then((cached) => ({ ...q, cached }));
      asked.set(ctx, chat);
    }
    return chat;
  };

  /**
   * A chat request's refusals before it is charged (the route's `check`): messages without a question (`askedOf`),
   * and a stream sent with an `Idempotency-Key` (a stream is not replayed).
   */
  const chatCheck = async (ctx: ChatContext) => {
    await askedOf(ctx);
    if (ctx.body.stream && ctx.req.headers['idempotency-key'] !== undefined)
      throw apiError(
        'idempotency_not_supported',
        'Una respuesta con `stream` no se repite: envíala sin Idempotency-Key.',
      );
  };

  const chatCompletions = async (ctx: ChatContext) => {
    const chat = await askedOf(ctx);
    const space = ctx.space!.id;
    const conversation = await rag.openConversationWith(space, chat.history);
    const continuing = chat.history.length > 0;
    const cost = chat.cached ? 0 : QUESTION_COST;
    const head = { id: `chatcmpl-${ctx.id}`, created: unixSeconds(ctx.now), model: space };
    const toAnswer: QuestionToAnswer = { question: chat.question, conversation, continuing, cached: chat.cached };
    const turn = await takeQuestionTurn(gate, ctx);
    if (!ctx.body.stream) {
      let result;
      try {
        result = await rag.ask(space, toAnswer, ctx.signal);
      } finally {
        turn.release();
      }
      const cerebro = answerView(conversation, result.answer, result.cache, result.cache.hit ? 0 : cost);
      return {
        ...head,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: result.answer.text, refusal: null },
            finish_reason: 'stop',
            logprobs: null,
          },
        ],
        usage: usageView(cerebro.uso),
        cerebro,
      };
    }
    const sse = new SseStream(ctx.res, { 'X-Request-Id': ctx.id });
    const chunk = (delta: Record<string, string>, finish: 'stop' | null, extra: object = {}) => ({
      ...head,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
      ...extra,
    });
    sse.data(chunk({ role: 'assistant', content: '' }, null));
    return streamAnswer(
      ctx,
      sse,
      turn,
      async () => {
        for await (const event of rag.askStream(space, toAnswer, ctx.signal)) {
          if (sse.isClosed) return false;
          if (event.type === 'delta') sse.data(chunk({ content: event.text }, null));
          else if (event.type === 'done') {
            const cerebro = answerView(
              conversation,
              event.answer,
              event.cache ?? { hit: false },
              event.cache?.hit ? 0 : cost,
            );
            sse.data(chunk({}, 'stop', { cerebro }));
            if (ctx.body.stream_options?.include_usage)
              sse.data({ ...head, object: 'chat.completion.chunk', choices: [], usage: usageView(cerebro.uso) });
            sse.data('[DONE]');
            return true;
          }
        }
        return false;
      },
      () =>
        sse.data({ error: { message: 'No se pudo completar la respuesta.', type: 'server_error', code: 'internal' } }),
    );
  };

  return hostRoutes(
    OPENAI_ROUTES,
    {
      'openai.chatCompletions': chatCompletions,
      'openai.listModels': async (ctx) => ({
        object: 'list',
        data: (await keys.reachableSpaces(ctx.caller as OwnerCaller, ctx.arrivedAt)).map((r) => ({
          id: r.row.id,
          object: 'model',
          created: unixSeconds(r.row.created_at),
          owned_by: r.row.name,
        })),
      }),
    },
    {
      pricing: { 'openai.chatCompletions': async (ctx) => ((await askedOf(ctx)).cached ? 0 : QUESTION_COST) },
      checks: { 'openai.chatCompletions': chatCheck },
    },
  );
}
