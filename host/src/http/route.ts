import type { HttpMethod, JsonSchema, Permission, QuerySchema, RouteBody, RouteQuery } from '@cerebro/sdk';
import type { AuditNote, RequestContext } from './request-context.js';
import type { MemberRole } from '../members/member-role.js';

/**
 * How a successful write of a route is recorded in the audit log. The pipeline records every successful POST,
 * PUT, PATCH and DELETE (`host/src/audit/route-auditor.ts`); a route only says what to call the change and what
 * to keep of it.
 */
export interface HostRouteAudit {
  /** A stable dotted name (`clave.creada`), or one chosen per request; default: the route's `operationId`. */
  action?: string | ((ctx: RequestContext) => string);
  /** The path parameter naming what changed (default: the last one other than `espacio`) and what it is. */
  target?: string;
  targetKind?: string;
  /**
   * A settings route with a GET at the same path: that GET's answer is kept as it was before the change and
   * became after it (without secrets).
   */
  snapshot?: boolean;
  /**
   * More of the change, from the validated request and the handler's answer (never a secret or document text);
   * `null` when this successful answer changed nothing after all (an upload whose every file was refused): no event,
   * as for a refused request.
   */
  describe?: (ctx: RequestContext, result: unknown) => AuditNote | null | undefined;
}

/**
 * Who may reach a route:
 * - `public`: anyone (health, readiness, the OpenAPI document);
 * - `owner`: a key or console session, no space in the path (spaces list, key management);
 * - `space`: a key or console session that reaches the `:espacio` of the path, with its permission, or a member
 *   of that space whose role allows the route (`memberRole`);
 * - `console`: an owner in Studio only (a console session, by cookie or `crs_` Bearer): sign-out, sessions, profile;
 * - `admin`: the platform operator only;
 * - `visitor`: anyone, without a credential, on a space named in the path that exists, is in good standing and has
 *   the route's module (else 404); counted per client address (`perAddressPerMinute`). A plugin's `public` routes.
 */
export type RouteAccess = 'public' | 'owner' | 'space' | 'console' | 'admin' | 'visitor';

/** One route of the service, host-owned or contributed by a plugin. Everything the pipeline needs is data here. */
export interface HostRoute {
  /** OpenAPI operationId: `<owner>.<id>`. */
  operationId: string;
  method: HttpMethod;
  /** Full path under the server root, polka style (`/api/rag/:espacio/documents`). */
  path: string;
  access: RouteAccess;
  permission?: Permission;
  /**
   * The least role a member of the space needs here (`space` routes; default `edita` to write, `consulta` to
   * read). Owners and keys are not affected. `administra`: members, keys, API settings, webhooks, the audit log.
   */
  memberRole?: MemberRole;
  /** An `owner` or `console` route a member signed in to Studio may use too (their spaces, their session). */
  members?: boolean;
  /** A `space` route for people in Studio only (owner or member sessions): keys get `403 console_only`. */
  studioOnly?: boolean;
  /** Module the space must have enabled (plugin routes). */
  module?: string;
  moduleDisabledDetail?: string;
  /** Credits reserved before the handler runs (refunded when it fails). */
  credits?: number;
  /**
   * The cost of this particular request, decided after the body is read (default `credits`); a promise when it
   * reads storage (a cached answer is free).
   */
  creditsFor?: (ctx: RequestContext) => number | Promise<number>;
  /**
   * The route's own refusals that need no work done: what its handler would refuse from the request and the stored
   * state alone (a blank text, a referenced conversation that does not exist, a landing in the wrong state). Run by
   * the pipeline after every check before it (access, limits, body schema, idempotency) and before the price and
   * the credits, so such a refusal is answered with its own status and never charged, not even on an empty pool.
   * It can only refuse (throw an `ApiError`): what it returns is ignored. The handler still checks what may have
   * changed since (stored state), then any refusal of its own is refunded.
   */
  check?: (ctx: RequestContext) => void | Promise<void>;
  /** `form`: an HTML form's urlencoded body, read into an object of strings (`visitor` routes). */
  body?: 'json' | 'multipart' | 'none' | 'form';
  maxBodyBytes?: number;
  /** `visitor` routes: requests one client address may make to the route per clock minute (429 past it). */
  perAddressPerMinute?: number;
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
  /**
   * A `space` route whose space is named by this field of its JSON body instead of `:espacio` in the path (the
   * OpenAI-compatible `model`). The space checks (reach, payment, permission, limits) then run once the body is
   * read and validated, before idempotency and credits, exactly as for a path-named space.
   */
  spaceInBody?: string;
  /**
   * `openai`: every error body also carries OpenAI's `error: {message, type, code}` beside Cerebro's `detail` and
   * `codigo`, so that API's clients show the reason (routes of the OpenAI-compatible dialect).
   */
  errorFormat?: 'openai';
  /**
   * A route of the space's own settings (`api-config`): a write key of the owner is never refused there by the
   * space's per-minute limit or daily quota (its calls are still counted), so a limit set too low can be undone
   * with the same key. The key's own limits still apply.
   */
  spaceSettings?: boolean;
  /** How a successful write is recorded in the audit log; `false`: not a change (a question, a search). */
  audit?: HostRouteAudit | false;
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

/**
 * A host route as declared: the data the pipeline, the OpenAPI document and the README read, without its handler
 * (as a plugin's manifest route). Handlers are given apart, keyed by `operationId` (`hostRoutes`).
 */
export type HostRouteDeclaration = Omit<HostRoute, 'handler' | 'creditsFor' | 'check'>;

/**
 * What a host route's handler sees: the request with its JSON body typed from the declared `requestSchema` and its
 * query from the declared `query`.
 */
export type HostRouteContext<Declaration> = Omit<RequestContext, 'body' | 'query'> & {
  body: RouteBody<Declaration>;
  query: RouteQuery<Declaration>;
};

/** One handler per declared route, each receiving the body its declaration validates; a missing one does not compile. */
export type HostHandlers<Declarations extends readonly HostRouteDeclaration[]> = {
  [Id in Declarations[number]['operationId']]: (
    ctx: HostRouteContext<Extract<Declarations[number], { operationId: Id }>>,
  ) => unknown;
};

/** The handler-like functions of the routes that declare `credits`, keyed by `operationId`, each typed as its handler. */
type PaidRouteFunctions<Declarations extends readonly HostRouteDeclaration[], Result> = {
  [Id in Extract<Declarations[number], { credits: number }>['operationId']]?: (
    ctx: HostRouteContext<Extract<Declarations[number], { operationId: Id }>>,
  ) => Result;
};

/**
 * What paid routes add to their handlers, as a plugin's `pricing` and `checks`: per-request prices (called before
 * credits are reserved) and the refusals that run before the price (`HostRoute.check`).
 */
export interface HostPaidRoutes<Declarations extends readonly HostRouteDeclaration[]> {
  pricing?: PaidRouteFunctions<Declarations, number | Promise<number>>;
  checks?: PaidRouteFunctions<Declarations, void | Promise<void>>;
}

/** Declares host routes with their schemas kept literal, so their handlers' bodies are typed from them. */
export const declareRoutes = <const Declarations extends readonly HostRouteDeclaration[]>(
  declarations: Declarations,
): Declarations => declarations;

/**
 * Joins declarations and their handlers into the routes the pipeline serves. The pipeline validated the body
 * against the declaration's `requestSchema` (and the query against its `query`) before the handler runs, which is
 * what makes the typed body and query true.
 */
export function hostRoutes<const Declarations extends readonly HostRouteDeclaration[]>(
  declarations: Declarations,
  handlers: HostHandlers<Declarations>,
  paid: HostPaidRoutes<Declarations> = {},
): HostRoute[] {
  // Each handler's context is narrower than a route's (typed body and query); the pipeline's validation makes it so.
  const byId = handlers as unknown as Record<string, HostRoute['handler']>;
  const prices = (paid.pricing ?? {}) as unknown as Record<string, HostRoute['creditsFor']>;
  const checks = (paid.checks ?? {}) as unknown as Record<string, HostRoute['check']>;
  return declarations.map((declaration) => {
    const creditsFor = prices[declaration.operationId];
    const check = checks[declaration.operationId];
    return {
      ...declaration,
      ...(creditsFor ? { creditsFor } : {}),
      ...(check ? { check } : {}),
      handler: byId[declaration.operationId]!,
    };
  });
}
