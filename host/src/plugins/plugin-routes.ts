import { apiError, type ModuleRequest } from '@cerebro/sdk';
import type { HostRoute } from '../http/route.js';
import type { RequestContext } from '../http/request-context.js';
import type { LoadedPlugin } from './plugin-loader.js';

/** What a plugin handler sees of a request: the pipeline's verdict, read-only. */
function moduleRequest(ctx: RequestContext, pluginId: string): ModuleRequest {
  const { espacio: _space, ...params } = ctx.params;
  const caller = ctx.caller!;
  if (caller.kind === 'operator' || !ctx.space || !ctx.permission)
    throw new Error('pipeline invariant: plugin route without space access');
  return Object.freeze({
    id: ctx.id,
    space: Object.freeze({ ...ctx.space, modules: Object.freeze([...ctx.space.modules]) }),
    // A member appears as a Studio session of the space's owner (their role already decided the permission).
    caller: Object.freeze({
      kind: caller.kind === 'member' ? 'console' : caller.kind,
      ownerId: caller.kind === 'member' ? ctx.spaceRecord!.row.owner_id! : caller.ownerId,
      ...(caller.kind === 'key' ? { keyId: caller.key.id } : {}),
      permission: ctx.permission,
    }),
    params: Object.freeze(params),
    query: ctx.query,
    body: ctx.body,
    headers: ctx.req.headers,
    raw: ctx.req,
    signal: ctx.signal,
    log: ctx.log.child({ plugin: pluginId }),
  }) as ModuleRequest;
}

/**
 * The plugin's price for this request, never above what its manifest declares nor below zero. A price that reads
 * storage is a promise; a synchronous one stays synchronous (the pipeline's fast path for free requests).
 */
function priceOf(
  plugin: LoadedPlugin,
  routeId: string,
  declared: number,
  ctx: RequestContext,
): number | Promise<number> {
  const clamp = (price: number) =>
    Number.isFinite(price) ? Math.min(declared, Math.max(0, Math.round(price))) : declared;
  const price = plugin.pricing![routeId]!(moduleRequest(ctx, plugin.manifest.id));
  return typeof price === 'number' ? clamp(price) : price.then(clamp);
}

/**
 * Turns a plugin's manifest routes into host routes under `/api/mod/<id>/:espacio`. Access data (permission,
 * module, credits) is copied from the manifest; the handler is only called after the whole pipeline passed.
 * Routes of a plugin that failed to start answer 503.
 */
export function pluginRoutes(plugin: LoadedPlugin): HostRoute[] {
  const { manifest } = plugin;
  return manifest.routes.map((route) => ({
    operationId: `${manifest.id}.${route.id}`,
    method: route.method,
    path: `/api/mod/${manifest.id}/:espacio${route.path}`,
    access: 'space' as const,
    permission: route.permission,
    module: manifest.id,
    moduleDisabledDetail: manifest.moduleDisabledDetail,
    credits: route.credits ?? 0,
    ...(plugin.pricing?.[route.id]
      ? { creditsFor: (ctx: RequestContext) => priceOf(plugin, route.id, route.credits ?? 0, ctx) }
      : {}),
    body: route.body ?? (['POST', 'PUT', 'PATCH'].includes(route.method) ? 'json' : 'none'),
    maxBodyBytes: route.maxBodyBytes,
    idempotent: route.idempotent,
    ...(route.errorFormat ? { errorFormat: route.errorFormat } : {}),
    ...(route.audit !== undefined ? { audit: route.audit } : {}),
    tag: manifest.id,
    summary: route.summary,
    description: route.description,
    requestSchema: route.requestSchema,
    query: route.query,
    responses: route.responses,
    handler: (ctx: RequestContext) => {
      const handler = plugin.handlers[route.id];
      if (plugin.state !== 'activo' || !handler) {
        throw apiError('plugin_unavailable', `El módulo ${manifest.id} no está disponible: falló al arrancar.`);
      }
      return handler(moduleRequest(ctx, manifest.id));
    },
  }));
}
