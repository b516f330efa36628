import type { ServerResponse } from 'node:http';
import polka, { type Polka, type Request } from 'polka';
import type { Logger as PinoLogger } from 'pino';
import { apiError } from '@cerebro/sdk';
import type { RoutePipeline } from './http-services.js';
import { requestIdFor } from './request-context.js';
import { sendError } from './respond.js';
import type { HostRoute } from './route.js';
import { settleUnreadBody } from './unread-body.js';
import { indexRoutes, type SegmentRouter } from './route-index.js';

const CREDENTIAL_LIKE = /cr[bsa]_[0-9A-Za-z]+(\.[A-Za-z0-9_-]*)?/g;

/** A request path fit for a log line: no query string, at most 200 characters, credential-shaped text masked. */
const loggablePath = (raw: string): string => raw.split('?')[0]!.slice(0, 200).replace(CREDENTIAL_LIKE, '[oculto]');

/** A regular expression matching the concrete paths of a polka route pattern (`:name` is one segment). */
export const pathShape = (path: string): RegExp =>
  new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+/g, '[^/]+')}/?$`);

/**
 * The polka application: one pipeline handler per route, and JSON answers for everything polka itself would
 * answer in plain text (unknown route, wrong method, an error escaping a handler, which polka's default
 * `onError` would send with `err.message`).
 */
export function buildApp(routes: readonly HostRoute[], pipeline: RoutePipeline, log: PinoLogger): Polka {
  const methodsByShape = new Map<string, Set<string>>();
  const shapes: { re: RegExp; methods: Set<string> }[] = [];
  for (const route of routes) {
    let methods = methodsByShape.get(route.path);
    if (!methods) {
      methods = new Set();
      methodsByShape.set(route.path, methods);
      shapes.push({ re: pathShape(route.path), methods });
    }
    methods.add(route.method);
  }

  // Answers polka gives outside any route's pipeline (unknown path, wrong method, an escaped error) get an access
  // line too, so probes and typos show in the logs. Routed lines name the route pattern; these name the path
  // itself, without the query string, cut short, and with anything shaped like a credential masked.
  const reply = (err: unknown, req: Request, res: ServerResponse) => {
    const id = requestIdFor(req.headers['x-request-id']);
    const headers: Record<string, string> = {};
    if (!res.headersSent) {
      res.setHeader('X-Request-Id', id);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      // A body sent to an unknown route or with the wrong method is never read: settled like any early answer's.
      settleUnreadBody(req, res, headers);
    }
    const status = sendError(res, err, log.child({ reqId: id }), id, headers);
    log.info({ method: req.method, path: loggablePath(req.path ?? req.url ?? ''), reqId: id, status }, 'petición');
  };

  const app = polka({
    onError: (err, req, res) => reply(err, req, res),
    onNoMatch: (req, res) => {
      const path = (req.path ?? req.url ?? '').split('?')[0]!;
      const allowed = shapes.filter((s) => s.re.test(path)).flatMap((s) => [...s.methods]);
      if (allowed.length > 0) {
        res.setHeader('Allow', [...new Set(allowed)].join(', '));
        return reply(apiError('method_not_allowed'), req, res);
      }
      reply(apiError('route_not_found'), req, res);
    },
  });
  indexRoutes(app as unknown as SegmentRouter);
  const reads = new Map(routes.filter((r) => r.method === 'GET').map((r) => [r.path, r]));
  for (const route of routes) {
    const readBack = route.audit && route.audit.snapshot ? reads.get(route.path) : undefined;
    if (route.audit && route.audit.snapshot && !readBack)
      throw new Error(`${route.operationId}: snapshot sin una ruta GET en ${route.path}`);
    app.add(route.method, route.path, pipeline.handlerFor(route, readBack));
  }
  return app;
}
