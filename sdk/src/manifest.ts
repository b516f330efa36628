import type { PluginGauge } from './metrics.js';
import type { DependencyContainer } from 'tsyringe';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { HttpMethod, ModuleRequest, Permission, QueryValue, RouteHandler } from './http.js';
import type { QuerySchema } from './query.js';
import type { Token } from './tokens.js';
import type { ErrorCatalogue } from './errors/catalogue.js';

/** JSON Schema fragment used to document (and, for bodies, to describe) a route in the OpenAPI document. */
export type JsonSchema = Record<string, unknown>;

export interface RouteDeclaration {
  /** Unique within the plugin; the OpenAPI operationId is `<plugin>.<id>`. Also the key of its handler. */
  id: string;
  method: HttpMethod;
  /** Relative to `/api/mod/<plugin>/{espacio}`, starting with `/`. Parameters as `:name`. */
  path: string;
  /** Permission the caller needs on the space. */
  permission: Permission;
  /** Credits deducted from the space's account on each successful call (0 or absent: free). */
  credits?: number;
  /**
   * Honour `Idempotency-Key` (give it to every paid POST): the host stores the successful answer for 24 h and
   * replays it to a retry with the same key and body from the same caller on the same space, without calling the
   * handler or charging again. Needs a JSON body (the body is what "the same request" means).
   */
  idempotent?: boolean;
  /**
   * `openai`: error bodies also carry OpenAI's `error: {message, type, code, param}` beside `detail` and `codigo`,
   * for routes that mimic that API (its clients read `error.message`).
   */
  errorFormat?: 'openai';
  /**
   * How the body arrives: parsed JSON, a multipart stream read through the upload service, none, or (`public`
   * routes only, since sdk 2.1) an HTML form without script: `application/x-www-form-urlencoded`, read by the host
   * into an object of strings (a field sent twice is a 400) and validated against `requestSchema` like JSON.
   */
  body?: 'json' | 'multipart' | 'none' | 'form';
  /**
   * Largest accepted JSON or form body in bytes (default: the host's limit; on a `public` route at most
   * `PUBLIC_MAX_BODY_BYTES`). Multipart limits belong to the upload call.
   */
  maxBodyBytes?: number;
  /**
   * Reachable without a key (since sdk 2.1): a page or form a plugin shows to anyone, such as a published landing.
   * Mounted at `/api/pub/<plugin>/{espacio}<path>` instead of `/api/mod/…`. The host still requires the space to
   * exist, be in good standing (trial, payment) and have the module, answering `404` otherwise (the same as an
   * unknown page, so nothing about the space leaks); it counts requests per client address and route
   * (`perMinute`, `429` past it) and caps the body at `PUBLIC_MAX_BODY_BYTES`. An `Authorization` header or Studio
   * cookie sent along is ignored: the handler sees `caller.kind === 'visitor'` with permission `lee`, and the handler
   * decides on its own what the visitor may see (an unguessable token in the path, say). Such a route declares
   * `permission: 'lee'`, no `credits`, no `idempotent`, no multipart body, and is never audited (a visitor is not
   * a person of the owner's).
   */
  public?: PublicRoute;
  summary: string;
  description?: string;
  /**
   * JSON Schema of a JSON request body. The host validates every body against it before credits are reserved and
   * before the handler runs (422 naming each problem); an object with a closed set of fields declares
   * `additionalProperties: false`, so unknown fields are refused. For multipart routes it only documents the form.
   */
  requestSchema?: JsonSchema;
  /** The query parameters the route reads; the handler receives them validated and converted (see `QuerySchema`). */
  query?: QuerySchema;
  responses?: Record<string, { description: string; schema?: JsonSchema; contentType?: string }>;
  /**
   * How a successful call is recorded in the host's audit log, which records every successful POST, PUT, PATCH
   * and DELETE whatever the plugin says; `false` only for calls that change nothing a person would audit (a
   * question, a lead's message). Default action: `<plugin>.<id>`.
   */
  audit?: RouteAudit | false;
}

/** The host's own limits on a `public` route, counted per client address (behind a trusted proxy, the client's). */
export interface PublicRoute {
  /** Requests one address may make to this route per clock minute (1–600); past it the host answers `429`. */
  perMinute: number;
}

/** The largest body a `public` route accepts (bytes), whatever its `maxBodyBytes` says. */
export const PUBLIC_MAX_BODY_BYTES = 64 * 1024;

/** What the audit log calls a plugin route's change and keeps of it. */
export interface RouteAudit {
  /** A stable dotted name, e.g. `ventas.producto.guardado`. */
  action?: string;
  /** The path parameter naming what changed (default: the last one), and what it is (`producto`). */
  target?: string;
  targetKind?: string;
  /**
   * A settings route with a GET at the same path: the log keeps that GET's answer before and after the change
   * (fields named like secrets are hidden, long texts cut).
   */
  snapshot?: boolean;
}

/** A schema migration of the plugin's own tables. Applied once, in order; never edited after release. */
export interface Migration {
  /** Ordered id, e.g. `0001_brand`. */
  id: string;
  sql: string;
}

export interface ServiceUse {
  token: Token<unknown>;
  /** When true the plugin still loads without a provider; it receives `null` for the token. */
  optional?: boolean;
}

export interface PluginManifest {
  /** Module id, also the URL segment (`/api/mod/<id>/...`) and the name enabled per space. */
  id: string;
  /** The plugin's own semantic version. */
  version: string;
  /** Semver range of the sdk contract the plugin was written for, e.g. `^1.0.0`. */
  sdk: string;
  title: string;
  description?: string;
  routes: RouteDeclaration[];
  migrations?: Migration[];
  /**
   * The same migrations in PostgreSQL's dialect, for a host on PostgreSQL (`CEREBRO_DATABASE_URL`), where the plugin's
   * tables live in a schema and role of its own. Same ids as `migrations`, in the same order (one ledger says the same
   * on both backends). A plugin with `migrations` but without these is refused at start on PostgreSQL, naming it.
   */
  postgresMigrations?: Migration[];
  /** Host services the plugin's container receives (tokens from `HostServices`). */
  needs?: Token<unknown>[];
  /** Services the plugin registers in `setup` for other plugins. */
  provides?: Token<unknown>[];
  /** Services of other plugins it needs. */
  uses?: ServiceUse[];
  /** Configuration keys with their defaults (strings, numbers, booleans). */
  config?: Record<string, string | number | boolean>;
  /** Detail of the host's 403 when the module is not enabled for the space (default: the catalogue text). */
  moduleDisabledDetail?: string;
  /**
   * The plugin's own error codes (`defineErrors(...).catalogue`): merged into the one catalogue the host serves and
   * into the OpenAPI document's `codigo`. A code the host or another loaded plugin has is refused at load.
   */
  errors?: ErrorCatalogue;
}

/** What `setup` receives: the plugin's own child container, holding only what the manifest asked for. */
export interface PluginScope {
  readonly container: DependencyContainer;
  resolve<T>(token: Token<T>): T;
}

export interface PluginSetupResult {
  /** One handler per declared route id. */
  handlers: Record<string, RouteHandler>;
  /** Called on shutdown, in reverse load order. */
  dispose?: () => void | Promise<void>;
  /**
   * Per-request price of routes that declare `credits`: the manifest's `credits` is the most one request costs
   * (and what the OpenAPI document shows); this function may lower it for a given request (clamped to 0..credits).
   * Called after the body is read and before credits are reserved. Since sdk 2.1 it may return a promise (a price
   * that reads the plugin's database).
   */
  pricing?: Record<string, (req: ModuleRequest) => number | Promise<number>>;
  /**
   * What a paid route refuses before it is charged (since sdk 2.1): the refusals that need no work, only the request
   * and the plugin's stored state (a field the schema cannot check, a referenced record that does not exist, a record
   * in the wrong state). The host calls it after every check of its own (access, limits, body schema, idempotency)
   * and before `pricing` and the credits, so such a refusal costs nothing, moves nothing in the credit history and
   * is answered with its own status, also on an empty pool (not `402`). It refuses by throwing an `ApiError`; what
   * it returns is ignored. Only for routes with `credits`. The handler still runs its own checks (the stored state
   * may change in between), and a refusal there is refunded.
   */
  checks?: Record<string, (req: ModuleRequest) => void | Promise<void>>;
  /**
   * The plugin's own state for `GET /api/health` (`detalle`), e.g. whether an engine is loaded. Must be cheap. A
   * non-empty string `degradado` in it says the module cannot do its job (an engine without a model) and why:
   * health's `salud` becomes `degradada` and the operator sees that text in `motivos`.
   */
  status?: () => Record<string, unknown>;
  /** Gauges for `GET /api/metrics` by name (e.g. queue length, engine state), read at scrape time. */
  metrics?: Record<string, PluginGauge>;
}

export interface PluginDefinition {
  readonly manifest: PluginManifest;
  setup(scope: PluginScope): PluginSetupResult | Promise<PluginSetupResult>;
}

/** The JSON body a route's handler receives: typed from its `requestSchema` when the schema is a literal. */
export type RouteBody<R> = R extends { body: 'multipart' | 'none' }
  ? undefined
  : R extends { requestSchema: infer S extends JSONSchema & { readonly type: string } }
    ? string extends S['type']
      ? unknown
      : FromSchema<S> // a schema typed as a plain record says nothing
    : unknown;

/**
 * The query parameters a route's handler receives: typed from its `query` schema when the schema is a literal. The
 * host fills `default`s before the handler runs, so a parameter with a default is always there.
 */
export type RouteQuery<R> = R extends { query: infer Q extends JSONSchema & { readonly properties: object } }
  ? string extends keyof Q['properties']
    ? Readonly<Record<string, QueryValue>> // a schema typed as a plain `QuerySchema` says nothing
    : Readonly<FromSchema<Q & { readonly additionalProperties: false }>> // undeclared ones never reach the handler
  : Readonly<Record<string, QueryValue>>;

/** One handler per route id of `Routes`, each receiving the body its route declares. */
export type HandlersOf<Routes extends readonly RouteDeclaration[]> = {
  [Id in Routes[number]['id']]: (
    req: ModuleRequest<RouteBody<Extract<Routes[number], { id: Id }>>, RouteQuery<Extract<Routes[number], { id: Id }>>>,
  ) => unknown;
};

/** `PluginSetupResult` checked against the manifest's routes: a missing, extra or misspelt route id does not compile. */
export interface TypedSetupResult<Routes extends readonly RouteDeclaration[]>
  extends Omit<PluginSetupResult, 'handlers' | 'pricing' | 'checks'> {
  handlers: HandlersOf<Routes>;
  pricing?: PaidRouteFunctions<Routes, number | Promise<number>>;
  checks?: PaidRouteFunctions<Routes, void | Promise<void>>;
}

/** One function per route with `credits` (optional), receiving the request as that route's handler does. */
export type PaidRouteFunctions<Routes extends readonly RouteDeclaration[], Result> = {
  [Id in Extract<Routes[number], { credits: number }>['id']]?: (
    req: ModuleRequest<RouteBody<Extract<Routes[number], { id: Id }>>, RouteQuery<Extract<Routes[number], { id: Id }>>>,
  ) => Result;
};

/** What `definePlugin` takes: the manifest with its routes as written (ids and schemas kept literal). */
export interface TypedPluginDefinition<Routes extends readonly RouteDeclaration[]> {
  readonly manifest: Omit<PluginManifest, 'routes'> & { routes: Routes };
  setup(scope: PluginScope): TypedSetupResult<Routes> | Promise<TypedSetupResult<Routes>>;
}

/**
 * Declares a plugin. The default export of the plugin's entry module. The route ids and request schemas written in
 * the manifest type `setup`'s handlers: each declared id needs a handler (a typo does not compile), and a route with
 * a literal `requestSchema` gets `req.body` typed from it (`json-schema-to-ts`), e.g. `{ texto: string }`.
 * @example
 * export default definePlugin({
 *   manifest: { id: 'hola', version: '1.0.0', sdk: '^1.0.0', title: 'Hola', routes: [
 *     { id: 'saludo', method: 'GET', path: '/saludo', permission: 'lee', summary: 'Saluda' }] },
 *   setup: () => ({ handlers: { saludo: (req) => ({ hola: req.space.id }) } }),
 * });
 */
export function definePlugin<const Routes extends readonly RouteDeclaration[]>(
  definition: TypedPluginDefinition<Routes>,
): PluginDefinition {
  // The typing is compile-time only: at run time the host checks handlers against routes again (it also loads
  // plugins written in plain JavaScript).
  const untyped = definition as unknown as PluginDefinition;
  return Object.freeze({ ...untyped, manifest: Object.freeze({ ...untyped.manifest }) });
}
