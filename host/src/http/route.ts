import type { HttpMethod, JsonSchema, Permission, QuerySchema } from '@cerebro/sdk';
import type { RequestContext } from './request-context.js';

/**
 * Who may reach a route:
 * - `public`: anyone (health, readiness, the OpenAPI document);
 * - `owner`: a key or console session, no space in the path (spaces list, key management);
 * - `space`: a key or console session that reaches the `:espacio` of the path, with its permission;
 * - `console`: an owner in Studio only (a console session, by cookie or `crs_` Bearer): sign-out, sessions, profile;
 * - `admin`: the platform operator only.
 */
export type RouteAccess = 'public' | 'owner' | 'space' | 'console' | 'admin';

/** One route of the service, host-owned or contributed by a plugin. Everything the pipeline needs is data here. */
export interface HostRoute {
  /** OpenAPI operationId: `<owner>.<id>`. */
  operationId: string;
  method: HttpMethod;
  /** Full path under the server root, polka style (`/api/rag/:espacio/documents`). */
  path: string;
  access: RouteAccess;
  permission?: Permission;
  /** Module the space must have enabled (plugin routes). */
  module?: string;
  moduleDisabledDetail?: string;
  /** Credits reserved before the handler runs (refunded when it fails). */
  credits?: number;
  /** The cost of this particular request, decided after the body is read (default `credits`). */
  creditsFor?: (ctx: RequestContext) => number;
  body?: 'json' | 'multipart' | 'none';
  maxBodyBytes?: number;
  /** Answers even while starting or stopping (health); every other route gets 503 then. */
  ungated?: boolean;
  /** The answer carries a secret (a new key, session or operator credential): sent with `Cache-Control: no-store`. */
  carriesCredentials?: boolean;
  /**
   * A paid POST that honours `Idempotency-Key`: a retry with the same key and body within 24 h gets the stored
   * answer without running or paying again. Applied by the pipeline; the route's JSON body is the fingerprint.
   */
  idempotent?: boolean;
  /** Response is a server-sent event stream (refuses `Idempotency-Key`: a stream is not replayed). */
  stream?: boolean;
  tag: string;
  summary: string;
  description?: string;
  /** JSON Schema every JSON body is validated against before credits and the handler (multipart: documentation). */
  requestSchema?: JsonSchema;
  /** The query parameters the handler reads, validated and converted by the pipeline; without it `query` is empty. */
  query?: QuerySchema;
  responses?: Record<string, { description: string; schema?: JsonSchema; contentType?: string }>;
  handler: (ctx: RequestContext) => unknown | Promise<unknown>;
}

/** `METHOD /path` with the `/api` prefix and parameters as written in the route, for counters and logs. */
export const routeLabel = (route: Pick<HostRoute, 'method' | 'path'>): string =>
  `${route.method} ${route.path.replace(/^\/api/, '')}`;
