import { randomBytes } from 'node:crypto';
import {
  Reply,
  apiError,
  validationError,
  type EventPublisher,
  type ModuleRequest,
  type RouteHandler,
  type ValidationIssue,
} from '@cerebro/sdk';
import type { ConversationRunner } from '../agent/index.js';
import type { CatalogStore } from '../store/catalog-store.js';
import type { LeadsConfigStore } from '../store/config-store.js';
import type { Contacto, SqliteConversationStore } from '../store/conversation-store.js';
import { conversationView, messageView } from '../views.js';
import { pageOf } from './validation.js';

/** Credits one lead message costs (declared on the route in the manifest; refunded by the host if it fails). */
export const MESSAGE_COST = 1;
export const MAX_MESSAGE_CHARS = 2000;

const NOT_FOUND = 'Conversación no encontrada.';
const NOT_HANDED_OFF =
  'La conversación la atiende el agente: solo se responde como persona en una conversación derivada (estado "derivada").';
const CONTACT_LIMITS: Record<keyof Contacto, number> = { nombre: 120, telefono: 40, email: 200 };
const CONTACT_FIELDS = Object.keys(CONTACT_LIMITS) as (keyof Contacto)[];

interface MessageBody {
  mensaje: string;
  conversacion: string | null;
  contacto: Contacto | undefined;
}

/**
 * The message of a body the host already checked against MESSAGE_SCHEMA (types, lengths, no unknown fields). Left
 * here: text that is only blanks, which a schema's `minLength` lets through.
 */
function parseMessageBody(body: unknown): MessageBody {
  const sent = body as { mensaje: string; conversacion?: string | null; contacto?: Partial<Contacto> | null };
  const issues: ValidationIssue[] = [];
  const mensaje = sent.mensaje.trim();
  if (mensaje === '')
    issues.push({
      loc: ['body', 'mensaje'],
      msg: `mensaje: debe ser un texto de 1 a ${MAX_MESSAGE_CHARS} caracteres`,
      type: 'value_error',
    });
  let contacto: Contacto | undefined;
  if (sent.contacto) {
    contacto = {};
    for (const key of CONTACT_FIELDS) {
      const value = sent.contacto[key];
      if (value === undefined) continue;
      if (value.trim() === '')
        issues.push({
          loc: ['body', 'contacto', key],
          msg: `contacto.${key}: debe ser un texto de 1 a ${CONTACT_LIMITS[key]} caracteres`,
          type: 'value_error',
        });
      else contacto[key] = value.trim();
    }
  }
  if (issues.length > 0) throw validationError(issues);
  return { mensaje, conversacion: sent.conversacion ?? null, contacto };
}

export interface ConversationDeps {
  runner: ConversationRunner;
  conversations: SqliteConversationStore;
  catalog: CatalogStore;
  config: LeadsConfigStore;
  /** Where `ventas.conversacion_derivada` and `ventas.respuesta_persona` go (the space's webhooks). */
  events?: EventPublisher;
}

/**
 * A message's refusals before the host charges it (route `converse`'s check): blank text or contact fields (422) and
 * a `conversacion` that is not one of this space (404), so neither costs a credit nor becomes a 402 on an empty pool.
 */
export function messageCheck(
  conversations: Pick<SqliteConversationStore, 'find'>,
): (req: ModuleRequest) => Promise<void> {
  return async (req) => {
    const input = parseMessageBody(req.body);
    if (input.conversacion !== null && !(await conversations.find(req.space.id, input.conversacion)))
      throw apiError('not_found', NOT_FOUND);
  };
}

/**
 * The price of one message (route `converse`): nothing while the conversation is with a person, since the agent
 * stays silent; otherwise MESSAGE_COST. Called after `messageCheck`, so the body is sound.
 */
export function messagePrice(
  conversations: Pick<SqliteConversationStore, 'find'>,
): (req: ModuleRequest) => number | Promise<number> {
  return async (req) => {
    const id = (req.body as { conversacion?: unknown } | undefined)?.conversacion;
    if (typeof id !== 'string') return MESSAGE_COST;
    const record = await conversations.find(req.space.id, id);
    return record?.state.estado === 'derivada' ? 0 : MESSAGE_COST;
  };
}

/** A lead's message to the agent, the leads listing, one conversation, a person's reply, and handing one back to the agent. */
export function conversationHandlers(deps: ConversationDeps) {
  const { runner, conversations, catalog, config } = deps;
  const found = async (espacio: string, id: string) => {
    const record = await conversations.find(espacio, id);
    if (!record) throw apiError('not_found', NOT_FOUND);
    return record;
  };
  return {
    converse: async (req) => {
      const input = parseMessageBody(req.body);
      const espacio = req.space.id;
      // `messageCheck` refused an unknown conversation before the charge; its record is read here for its state.
      const before = input.conversacion === null ? null : await found(espacio, input.conversacion);
      const silentBefore = before?.state.estado === 'derivada';
      const id = input.conversacion ?? `conv_${randomBytes(12).toString('base64url')}`;
      const result = await runner.handle(
        {
          espacio,
          conversacion: id,
          mensaje: input.mensaje,
          config: await config.get(espacio),
          brandEnabled: req.space.modules.includes('marca'),
        },
        (answered) =>
          conversations.recordTurn(espacio, id, {
            mensaje: input.mensaje,
            respuesta: answered.respuesta,
            tipo: answered.tipo,
            contacto: input.contacto,
          }),
      );
      const { conversacion, ...lead } = conversationView(await found(espacio, id), await catalog.products(espacio));
      // This message handed the conversation to a person: the shop hears of it at once, not at its next poll.
      if (!silentBefore && lead.estado === 'derivada')
        deps.events?.publish(espacio, 'ventas.conversacion_derivada', { conversacion, ...lead });
      return {
        conversacion,
        respuesta: result.respuesta,
        tipo: result.tipo,
        ...lead,
        marca: result.marca,
        combo_sugerido: result.suggestedCombo,
        pregunta_cierre: result.closingPrompt,
        redaccion: result.redaccion,
        creditos: silentBefore ? 0 : MESSAGE_COST,
      };
    },

    listConversations: async (req) => {
      const page = pageOf(req);
      const estado = req.query.estado as string | undefined;
      const { records, total } = await conversations.list(req.space.id, { estado, ...page });
      const products = await catalog.products(req.space.id);
      return { conversaciones: records.map((r) => conversationView(r, products)), total, ...page };
    },

    getConversation: async (req) => {
      const record = await found(req.space.id, req.params.conversacion);
      return {
        ...conversationView(record, await catalog.products(req.space.id)),
        mensajes: (await conversations.messages(req.space.id, record.id)).map(messageView),
      };
    },

    replyAsPerson: async (req) => {
      const espacio = req.space.id;
      const texto = (req.body as { texto: string }).texto.trim();
      if (texto === '')
        throw validationError([
          {
            loc: ['body', 'texto'],
            msg: `texto: debe ser un texto de 1 a ${MAX_MESSAGE_CHARS} caracteres`,
            type: 'value_error',
          },
        ]);
      const stored = await conversations.recordPersonReply(espacio, req.params.conversacion, texto);
      if (stored === null) throw apiError('not_found', NOT_FOUND);
      if (stored === 'no_derivada') throw apiError('conflict', NOT_HANDED_OFF);
      const reply = { conversacion: req.params.conversacion, ...messageView(stored) };
      deps.events?.publish(espacio, 'ventas.respuesta_persona', reply);
      return Reply.json(201, reply);
    },

    resumeConversation: async (req) => {
      const espacio = req.space.id;
      const record = await found(espacio, req.params.conversacion);
      await runner.resume(espacio, record.id);
      return conversationView(await found(espacio, record.id), await catalog.products(espacio));
    },
  } satisfies Record<string, RouteHandler>;
}
