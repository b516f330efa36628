import {
  apiError,
  PUBLIC_MAX_BODY_BYTES,
  type CallerContext,
  type ModuleRequest,
  type RouteDeclaration,
} from '@cerebro/sdk';
import type { HostRoute } from '../http/route.js';
import type { RequestContext } from '../http/request-context.js';
import type { LoadedPlugin } from './plugin-loader.js';

/** Who calls, as a plugin sees it: the authenticated owner's key or session, or a visitor on a public route. */
function callerContext(ctx: RequestContext): CallerContext {
  const caller = ctx.caller;
  if (!ctx.space || !ctx.permission) throw new Error('pipeline invariant: plugin route without space access');
  if (!caller) return { kind: 'visitor', ownerId: ctx.spaceRecord?.row.owner_id ?? '', permission: 'lee' };
  if (caller.kind === 'operator') throw new Error('pipeline invariant: the operator on a plugin route');
  // A member appears as a Studio session of the space's owner (their role already decided the permission).
  if (caller.kind === 'member')
    return { kind: 'console', ownerId: ctx.spaceRecord!.row.owner_id!, permission: ctx.permission };
  return {
    kind: caller.kind,
    ownerId: caller.ownerId,
    ...(caller.kind === 'key' ? { keyId: caller.key.id } : {}),
    permission: ctx.permission,
  };
}

/** What a plugin handler sees of a request: the pipeline's verdict, read-only. */
function moduleRequest(ctx: RequestContext, pluginId: string): ModuleRequest {
  const { espacio: _space, ...params } = ctx.params;
  const caller = callerContext(ctx);
  return Object.freeze({
    id: ctx.id,
    space: Object.freeze({ ...ctx.space!, modules: Object.freeze([...ctx.space!.modules]) }),
    caller: Object.freeze(caller),
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
 * What a paid route refuses before it is charged (step 7 of the pipeline): a plugin that failed to start (its
 * handler would answer 503), then the plugin's own `checks`. Free routes have none: they stay on the fast path.
 */
function checkOf(plugin: LoadedPlugin, route: RouteDeclaration): Pick<HostRoute, 'check'> {
  if (!((route.credits ?? 0) > 0)) return {};
  return {
    check: (ctx: RequestContext) => {
      if (plugin.state !== 'activo') throw unavailable(plugin);
      return plugin.checks?.[route.id]?.(moduleRequest(ctx, plugin.manifest.id));
    },
  };
}

const unavailable = (plugin: LoadedPlugin) =>
  apiError('plugin_unavailable', `El módulo ${plugin.manifest.id} no está disponible: falló al arrancar.`);

/**
 * Where a route is mounted and who reaches it: an owner's key or session under `/api/mod/<id>/:espacio`, or, for a
 * `public` route, anyone under `/api/pub/<id>/:espacio`, counted per address and with the body capped.
 */
function reach(
  pluginId: string,
  route: RouteDeclaration,
): Pick<HostRoute, 'path' | 'access' | 'maxBodyBytes' | 'perAddressPerMinute'> {
  if (!route.public)
    return { path: `/api/mod/${pluginId}/:espacio${route.path}`, access: 'space', maxBodyBytes: route.maxBodyBytes };
  return {
    path: `/api/pub/${pluginId}/:espacio${route.path}`,
    access: 'visitor',
    maxBodyBytes: Math.min(route.maxBodyBytes ?? PUBLIC_MAX_BODY_BYTES, PUBLIC_MAX_BODY_BYTES),
    perAddressPerMinute: route.public.perMinute,
  };
}

/**
 * Turns a plugin's manifest routes into host routes (see `reach`). Access data (permission,
 * module, credits) is copied from the manifest; the handler is only called after the whole pipeline passed.
 * Routes of a plugin that failed to start answer 503.
 */
export function pluginRoutes(plugin: LoadedPlugin): HostRoute[] {
  const { manifest } = plugin;
  return manifest.routes.map((route) => ({
    operationId: `${manifest.id}.${route.id}`,
    method: route.method,
    ...reach(manifest.id, route),
    permission: route.permission,
    module: manifest.id,
    moduleDisabledDetail: manifest.moduleDisabledDetail,
    credits: route.credits ?? 0,
    ...(plugin.pricing?.[route.id]
      ? { creditsFor: (ctx: RequestContext) => priceOf(plugin, route.id, route.credits ?? 0, ctx) }
      : {}),
    ...checkOf(plugin, route),
    body: route.body ?? (['POST', 'PUT', 'PATCH'].includes(route.method) ? 'json' : 'none'),
    idempotent: route.idempotent,
    ...(route.errorFormat ? { errorFormat: route.errorFormat } : {}),
    ...(route.audit !== undefined ? { audit: route.audit } : {}),
    ...(route.public ? { audit: false as const } : {}),
    tag: manifest.id,
    summary: route.summary,
    description: route.description,
    requestSchema: route.requestSchema,
    query: route.query,
    responses: route.responses,
    handler: (ctx: RequestContext) => {
      const handler = plugin.handlers[route.id];
      if (plugin.state !== 'activo' || !handler) throw unavailable(plugin);
      return handler(moduleRequest(ctx, manifest.id));
    },
  }));
}
