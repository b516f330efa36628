import { pagingQuery, Reply, type QuerySchema } from '@cerebro/sdk';
import { declareRoutes, hostRoutes, type HostRoute, type HostRouteDeclaration } from '../http/route.js';
import type { RequestContext } from '../http/request-context.js';
import { objectSchema } from '../http/response-schemas.js';
import type { Webhooks } from './webhook-services.js';
import {
  DELIVERY_PAGE_SCHEMA,
  DELIVERY_SCHEMA,
  SECRET_SCHEMA,
  WEBHOOK_CREATE_SCHEMA,
  WEBHOOK_LIST_SCHEMA,
  WEBHOOK_PATCH_SCHEMA,
  WEBHOOK_SCHEMA,
  WEBHOOK_WITH_SECRET_SCHEMA,
} from './webhook-schemas.js';

const DELIVERIES_QUERY = {
  type: 'object',
  properties: {
    ...pagingQuery(20, 100),
    estado: { enum: ['pendiente', 'entregada', 'fallida'], description: 'Solo las entregas en este estado.' },
  },
} as const satisfies QuerySchema;

const NOT_FOUND = { '404': { description: 'Webhook (o entrega) no encontrado en este espacio.' } };

/** A route of a space's webhooks, under `/api/companies/{espacio}/webhooks` (OpenAPI tag `core`). */
const webhookRoute = <const Declaration extends Omit<HostRouteDeclaration, 'access' | 'tag'>>(
  declaration: Declaration,
) => ({
  ...declaration,
  path: `/api/companies/:espacio/webhooks${declaration.path}`,
  access: 'space' as const,
  tag: 'core',
});

/** The webhook routes of a space (`/companies/{espacio}/webhooks…`), next to its other settings. */
export const WEBHOOK_ROUTES = declareRoutes([
  webhookRoute({
    operationId: 'core.listWebhooks',
    method: 'GET',
    path: '',
    permission: 'lee',
    summary: 'Webhooks del espacio (sin sus secretos)',
    responses: { '200': { description: 'Los webhooks.', schema: WEBHOOK_LIST_SCHEMA } },
  }),
  webhookRoute({
    operationId: 'core.createWebhook',
    audit: { action: 'webhook.creado', targetKind: 'webhook' },
    method: 'POST',
    path: '',
    permission: 'escribe',
    memberRole: 'administra',
    carriesCredentials: true,
    summary: 'Registrar un webhook (el secreto de firma se muestra solo en esta respuesta)',
    description:
      'Cada evento llega como POST JSON `{id, tipo, creado, espacio, datos}` con la cabecera `Cerebro-Firma: t=<unix>,v1=<HMAC-SHA256 hex de "<t>.<cuerpo>">`. Se reintenta con espera exponencial durante 24 h; 409 pasado el máximo por espacio.',
    requestSchema: WEBHOOK_CREATE_SCHEMA,
    responses: {
      '201': { description: 'El webhook, con su secreto.', schema: WEBHOOK_WITH_SECRET_SCHEMA },
      '409': { description: 'El espacio ya tiene el máximo de webhooks.' },
    },
  }),
  webhookRoute({
    operationId: 'core.getWebhook',
    method: 'GET',
    path: '/:webhook',
    permission: 'lee',
    summary: 'Un webhook',
    responses: { '200': { description: 'El webhook.', schema: WEBHOOK_SCHEMA }, ...NOT_FOUND },
  }),
  webhookRoute({
    operationId: 'core.patchWebhook',
    audit: { action: 'webhook.modificado', targetKind: 'webhook', snapshot: true },
    method: 'PATCH',
    path: '/:webhook',
    permission: 'escribe',
    memberRole: 'administra',
    summary: 'Cambiar un webhook (actualización parcial; `activo: true` lo reactiva)',
    requestSchema: WEBHOOK_PATCH_SCHEMA,
    responses: { '200': { description: 'El webhook guardado.', schema: WEBHOOK_SCHEMA }, ...NOT_FOUND },
  }),
  webhookRoute({
    operationId: 'core.deleteWebhook',
    audit: { action: 'webhook.eliminado', targetKind: 'webhook' },
    method: 'DELETE',
    path: '/:webhook',
    permission: 'escribe',
    memberRole: 'administra',
    summary: 'Eliminar un webhook y su historial de entregas',
    responses: {
      '200': { description: 'El id eliminado.', schema: objectSchema({ eliminado: { type: 'string' } }) },
      ...NOT_FOUND,
    },
  }),
  webhookRoute({
    operationId: 'core.rotateWebhookSecret',
    audit: { action: 'webhook.secreto_renovado', target: 'webhook', targetKind: 'webhook' },
    method: 'POST',
    path: '/:webhook/secreto',
    permission: 'escribe',
    memberRole: 'administra',
    body: 'none',
    carriesCredentials: true,
    summary: 'Cambiar el secreto de firma (el nuevo se muestra solo en esta respuesta)',
    description:
      'Durante 24 h las entregas llevan dos firmas `v1`, con el secreto nuevo y con el anterior, para que el receptor pueda cambiarlo sin perder eventos.',
    responses: { '200': { description: 'El nuevo secreto.', schema: SECRET_SCHEMA }, ...NOT_FOUND },
  }),
  webhookRoute({
    operationId: 'core.listWebhookDeliveries',
    method: 'GET',
    path: '/:webhook/entregas',
    permission: 'lee',
    summary: 'Entregas de un webhook con sus intentos (la más reciente primero; `?estado=` filtra)',
    query: DELIVERIES_QUERY,
    responses: { '200': { description: 'Una página de entregas.', schema: DELIVERY_PAGE_SCHEMA }, ...NOT_FOUND },
  }),
  webhookRoute({
    operationId: 'core.redeliverWebhook',
    audit: { action: 'webhook.entrega_reenviada', target: 'entrega', targetKind: 'entrega' },
    method: 'POST',
    path: '/:webhook/entregas/:entrega/reenviar',
    permission: 'escribe',
    memberRole: 'administra',
    body: 'none',
    summary: 'Reenviar una entrega ahora (un intento, con el mismo id de evento)',
    description:
      'Vale para entregas ya entregadas, fallidas o pendientes, también de un webhook desactivado. Una pendiente conserva sus reintentos: si este intento falla, sigue pendiente con el próximo intento previsto; una entregada o fallida recibe solo este intento.',
    responses: { '202': { description: 'La entrega, en cola.', schema: DELIVERY_SCHEMA }, ...NOT_FOUND },
  }),
]);

export function webhookRoutes(webhooks: Webhooks): HostRoute[] {
  const space = (ctx: Pick<RequestContext, 'space'>) => ctx.space!.id;
  return hostRoutes(WEBHOOK_ROUTES, {
    'core.listWebhooks': async (ctx) => ({ webhooks: await webhooks.list(space(ctx)) }),
    'core.createWebhook': async (ctx) => Reply.json(201, await webhooks.create(space(ctx), ctx.body)),
    'core.getWebhook': (ctx) => webhooks.get(space(ctx), ctx.params.webhook!),
    'core.patchWebhook': (ctx) => webhooks.update(space(ctx), ctx.params.webhook!, ctx.body),
    'core.deleteWebhook': async (ctx) => {
      await webhooks.remove(space(ctx), ctx.params.webhook!);
      return { eliminado: ctx.params.webhook! };
    },
    'core.rotateWebhookSecret': (ctx) => webhooks.rotateSecret(space(ctx), ctx.params.webhook!),
    'core.listWebhookDeliveries': (ctx) => {
      const { limite, desde, estado } = ctx.query;
      return webhooks.deliveries(space(ctx), ctx.params.webhook!, { limite, desde, ...(estado ? { estado } : {}) });
    },
    'core.redeliverWebhook': async (ctx) =>
      Reply.json(202, await webhooks.redeliver(space(ctx), ctx.params.webhook!, ctx.params.entrega!)),
  });
}
