import { apiError, pagingQuery, validationError, type QuerySchema } from '@cerebro/sdk';
import { declareRoutes, hostRoutes, type HostRoute } from '../http/route.js';
import type { RequestContext } from '../http/request-context.js';
import type { ConversationLog, DateRange, Paging } from './conversation-log.js';
import {
  CONVERSATION_PAGE_SCHEMA,
  CONVERSATION_SCHEMA,
  RATED_TURN_SCHEMA,
  UNANSWERED_PAGE_SCHEMA,
} from './conversation-schemas.js';
import { conversationSummaryView, conversationView, ratingView, unansweredView } from './conversation-views.js';
import { ragRoute } from './rag-route.js';

/** A day (`2026-11-27`) or an instant (`2026-11-27T10:00:00Z`, with an optional offset). */
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2}))?$';
const DAY_MS = 86_400_000;

/** `?limite&desde` (paging, as every list) and `fecha_desde`/`fecha_hasta` (by date; `desde` is the offset). */
const DATED_QUERY: QuerySchema = {
  type: 'object',
  properties: {
    ...pagingQuery(20, 100),
    fecha_desde: {
      type: 'string',
      pattern: DATE_PATTERN,
      description: 'Solo desde esta fecha (ISO 8601: `2026-11-27` o `2026-11-27T10:00:00Z`), incluida.',
    },
    fecha_hasta: {
      type: 'string',
      pattern: DATE_PATTERN,
      description: 'Solo hasta esta fecha: un día (`2026-11-27`) se incluye entero; un instante, excluido.',
    },
  },
};

const RATING_BODY = {
  type: 'object',
  required: ['turno', 'valoracion'],
  properties: {
    turno: { type: 'integer', minimum: 1, description: 'El turno valorado (su `turno` en la conversación).' },
    valoracion: { enum: ['positiva', 'negativa'], description: '👍 positiva, 👎 negativa.' },
    comentario: { type: 'string', maxLength: 2000, description: 'Por qué (opcional).' },
  },
  additionalProperties: false,
} as const;

/** A query date as an instant: a day alone means its start, or (as the end of a range) the start of the next day. */
function instantOf(ctx: RequestContext, name: 'fecha_desde' | 'fecha_hasta'): string | undefined {
  const raw = ctx.query[name] as string | undefined;
  if (raw === undefined) return undefined;
  const dayOnly = raw.length === 10;
  const ms = Date.parse(dayOnly ? `${raw}T00:00:00Z` : raw);
  if (Number.isNaN(ms) || (dayOnly && new Date(ms).toISOString().slice(0, 10) !== raw))
    throw validationError([{ loc: ['query', name], msg: 'No es una fecha válida.', type: 'value_error' }]);
  return new Date(dayOnly && name === 'fecha_hasta' ? ms + DAY_MS : ms).toISOString();
}

function rangeOf(ctx: RequestContext): DateRange {
  const since = instantOf(ctx, 'fecha_desde');
  const until = instantOf(ctx, 'fecha_hasta');
  return { ...(since ? { since } : {}), ...(until ? { until } : {}) };
}

const pageOf = (ctx: RequestContext): Paging => ({
  limit: ctx.query.limite as number,
  offset: ctx.query.desde as number,
});

const notFound = () => apiError('not_found', 'Conversación no encontrada en este espacio.');

/**
 * Reading back a space's Q&A conversations, rating their answers and the questions the documents did not answer.
 * Rating needs `lee`, like asking: it is feedback on an answer by whoever asked (a chat widget holds a `lee` key), not
 * a setting of the space; it changes nothing but the rating itself.
 */
export const conversationRouteDeclarations = declareRoutes([
  ragRoute({
    operationId: 'core.listConversations',
    method: 'GET',
    path: '/conversations',
    permission: 'lee',
    summary: 'Listar las conversaciones de preguntas (paginado, la más reciente primero)',
    description:
      'Con `fecha_desde`/`fecha_hasta` solo las activas en ese intervalo (por su último turno). No aparecen las conversaciones sin ningún turno respondido.',
    query: DATED_QUERY,
    responses: { '200': { description: 'Una página de conversaciones.', schema: CONVERSATION_PAGE_SCHEMA } },
  }),
  ragRoute({
    operationId: 'core.getConversation',
    method: 'GET',
    path: '/conversations/:conversacion',
    permission: 'lee',
    summary: 'Una conversación con sus turnos: preguntas, respuestas, fuentes y valoraciones',
    responses: {
      '200': { description: 'La conversación.', schema: CONVERSATION_SCHEMA },
      '404': { description: 'Conversación no encontrada.' },
    },
  }),
  ragRoute({
    operationId: 'core.rateAnswer',
    audit: false,
    method: 'POST',
    path: '/conversations/:conversacion/valoracion',
    permission: 'lee',
    summary: 'Valorar la respuesta de un turno (👍/👎 y un comentario)',
    description:
      'Una valoración por turno: otra valoración del mismo turno la sustituye. Basta el permiso `lee` (el de quien pregunta, p. ej. un widget de chat): es una opinión sobre una respuesta, no un ajuste del espacio. Se ve en la conversación.',
    requestSchema: RATING_BODY,
    responses: {
      '200': {
        description: 'La valoración guardada.',
        schema: RATED_TURN_SCHEMA,
      },
      '404': { description: 'Conversación o turno no encontrado.' },
    },
  }),
  ragRoute({
    operationId: 'core.unansweredQuestions',
    method: 'GET',
    path: '/preguntas_sin_respuesta',
    permission: 'lee',
    summary: 'Lo que se preguntó y los documentos no respondían (agrupado)',
    description:
      'Las preguntas cuya respuesta no estaba en los documentos (`encontrada: false`), agrupadas sin distinguir mayúsculas, tildes ni signos, con cuántas veces y la última; la más repetida primero. `fecha_desde`/`fecha_hasta` filtran por cuándo se preguntó.',
    query: DATED_QUERY,
    responses: { '200': { description: 'Una página de preguntas.', schema: UNANSWERED_PAGE_SCHEMA } },
  }),
]);

export function conversationRoutes(log: ConversationLog): HostRoute[] {
  const space = (ctx: RequestContext) => ctx.space!.id;
  return hostRoutes(conversationRouteDeclarations, {
    'core.listConversations': async (ctx) => {
      const page = pageOf(ctx);
      const { total, conversations } = await log.list(space(ctx), rangeOf(ctx), page);
      return {
        conversaciones: conversations.map(conversationSummaryView),
        total,
        limite: page.limit,
        desde: page.offset,
      };
    },
    'core.getConversation': async (ctx) => {
      const conversation = await log.get(space(ctx), ctx.params.conversacion!);
      if (!conversation) throw notFound();
      return conversationView(conversation);
    },
    'core.rateAnswer': async (ctx) => {
      const { turno, valoracion, comentario } = ctx.body;
      const id = ctx.params.conversacion!;
      const comment = comentario?.trim() || null;
      const rated = await log.rate(space(ctx), id, turno, valoracion, comment);
      if (rated) return { turno, ...ratingView(rated) };
      if (!(await log.get(space(ctx), id))) throw notFound();
      throw apiError('not_found', `La conversación no tiene el turno ${turno}.`);
    },
    'core.unansweredQuestions': async (ctx) => {
      const page = pageOf(ctx);
      const { total, questions } = await log.unanswered(space(ctx), rangeOf(ctx), page);
      return { preguntas: questions.map(unansweredView), total, limite: page.limit, desde: page.offset };
    },
  });
}
