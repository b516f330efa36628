import type { ServerResponse } from 'node:http';
import type { Logger as PinoLogger } from 'pino';
import type { Middleware, Request } from 'polka';
import { inject, injectable } from 'tsyringe';
import { Reply, apiError, type Clock } from '@cerebro/sdk';
import type { Authenticator, ValueOrPromise } from '../access/access-services.js';
import type { Caller, SpaceCaller } from '../access/caller.js';
import type { SpaceAccessPolicy } from '../access/access-services.js';
import type { HostConfig } from '../config/host-config.js';
import type { CreditLedger } from '../credits/credit-services.js';
import type { Lifecycle } from '../kernel/kernel-services.js';
import type { IdempotentRequests } from '../idempotency/idempotency-services.js';
import type { IdempotencyScope } from '../idempotency/idempotency-services.js';
import { HostTokens } from '../kernel/tokens.js';
import type { HostMetrics } from '../metrics/metrics-services.js';
import type { RouteMeter } from '../metrics/route-traffic.js';
import type { RateLimiter } from '../limits/limit-services.js';
import type { UsageCounters } from '../limits/limit-services.js';
import { readFormBody } from './form-body.js';
import { readJsonBody } from './json-body.js';
import { PipelineRequestContext, callerIp, requestIdFor, type RequestContext } from './request-context.js';
import { sendError, sendResult } from './respond.js';
import type { RoutePipeline } from './http-services.js';
import { routeLabel, type HostRoute } from './route.js';
import {
  compileBodyValidator,
  compileQueryValidator,
  type BodyValidator,
  type QueryValidator,
} from './schema-validation.js';
import { settleUnreadBody } from './unread-body.js';
import { accessLineOf, type AccessLine } from '../logging/access-line.js';
import { STATE_CHANGING, csrfMatches } from '../access/csrf.js';
import { requestIsSecure, sessionCookieOf } from '../access/session-cookie.js';
import type { RouteAuditHook, RouteAuditing } from '../audit/audit-services.js';

/**
 * The request pipeline every route runs through, host-owned or plugin-contributed. The order is fixed and
 * documented in the README ("Orden de comprobaciones"):
 *
 *  1. readiness (503 while starting or stopping)
 *  2. authentication (401)                         — not for public routes; a visitor route (a plugin's `public`
 *     route) reads no credential: its client address is counted (429), then its space must exist, be in good
 *     standing and have the module (404)
 *  3. caller kind: admin routes for the operator only, other routes for owners (403); a member (Studio) only on
 *     space routes and those declared open to members; keys never on Studio-only routes
 *  4. space access: reach → trial → payment (402) → API switch and IP list (keys) → module → permission (403),
 *     for a member their role on the space against the route's (`memberRole`)
 *  5. call counting (keys), rate limit per minute and daily quota of the space (429, keys)
 *  6. request data: query parameters against the route's `query` schema, then the JSON body's limits and syntax
 *     (413, 415, 400) and its `requestSchema` (422); both validators are compiled once here, at mount
 *  7. on routes flagged `idempotent`, an `Idempotency-Key` is held or its stored answer replayed (nothing below
 *     runs then); the route's own `check` (its refusals that need no work: the request and the stored state, such
 *     as a conversation that does not exist), so such a refusal is its own 4xx, never charged nor turned into a
 *     402; then credits reserved before the handler (402), refunded if the handler fails
 *  8. the handler
 *
 * A successful POST, PUT, PATCH or DELETE is recorded in the audit log (`RouteAuditing`) before its answer is sent, for
 * the host's routes and the plugins' alike; a settings route's values are read just before its handler runs.
 *
 * Plugins only provide step 8 (and a paid route's price and `check`, which run inside step 7 after every other
 * check and can only lower the price or refuse): the route data (permission, module, credits) comes from their
 * manifest and the pipeline applies it, so a plugin cannot skip or weaken any check.
 */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** The pipeline's own state of one request, beside the context handlers see. */
class Exchange {
  /**
   * Sent with writeHead rather than setHeader: Node's fast path for a response whose headers come in one object.
   * Constant headers every answer carries are written in the same literal, so they cost no extra allocation.
   */
  readonly headers: Record<string, string>;
  charged: { accountId: string; amount: number } | null = null;
  /** The `Idempotency-Key` this request holds until it answers (idempotent routes only). */
  idempotency: IdempotencyScope | null = null;
  entered = false;
  /** What the handler answered, and the settings before it ran (audited routes). */
  result: unknown = undefined;
  before: unknown = undefined;

  constructor(
    readonly ctx: PipelineRequestContext,
    readonly label: string,
    readonly accessLog: AccessLine,
    readonly meter: RouteMeter,
    /** The route's error dialect (`HostRoute.errorFormat`). */
    readonly errorFormat: HostRoute['errorFormat'],
    /** Cleared for a replayed answer: the change it reports was recorded when it happened. */
    public audit: RouteAuditHook | undefined,
  ) {
    this.headers = { 'X-Request-Id': ctx.id, 'X-Content-Type-Options': 'nosniff' };
  }
}

/** The status `sendResult` answers a handler's result with. */
const statusOf = (result: unknown): number =>
  result instanceof Reply ? result.status : result === undefined ? 204 : 200;

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

@injectable()
export class RequestPipeline implements RoutePipeline {
  constructor(
    @inject(HostTokens.Config) private readonly config: HostConfig,
    @inject(HostTokens.RootLogger) private readonly rootLog: PinoLogger,
    @inject(HostTokens.Authenticator) private readonly authenticator: Authenticator,
    @inject(HostTokens.SpacePolicy) private readonly policy: SpaceAccessPolicy,
    @inject(HostTokens.RateLimiter) private readonly rateLimiter: RateLimiter,
    @inject(HostTokens.Usage) private readonly usage: UsageCounters,
    @inject(HostTokens.Credits) private readonly credits: CreditLedger,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(HostTokens.Lifecycle) private readonly lifecycle: Lifecycle,
    @inject(HostTokens.Metrics) private readonly metrics: HostMetrics,
    @inject(HostTokens.IdempotentRequests) private readonly idempotent: IdempotentRequests,
    @inject(HostTokens.RouteAuditor) private readonly auditing: RouteAuditing,
  ) {}

  /**
   * The polka handler of one route. A request that needs neither a body nor an asynchronous step is answered
   * synchronously, within the call (which the server makes in the check phase of the turn that read the request:
   * http/check-phase.ts), like a bare route; the rest continues in an async function (authentication and access read
   * storage through async repositories when not memoised). Per-route constants (label, the access line with its
   * bindings serialised once by pino) are computed here, not per request.
   */
  handlerFor(route: HostRoute, readBack?: HostRoute): Middleware {
    const label = routeLabel(route);
    const audit = this.auditing.hookFor(route, readBack);
    const accessLog = accessLineOf(this.rootLog.child({ method: route.method, route: label }));
    const meter = this.metrics.traffic.meterFor(label);
    const readsJson = route.body === 'json' || (route.body === undefined && BODY_METHODS.has(route.method));
    const readsBody = readsJson || route.body === 'form';
    const validateQuery: QueryValidator | undefined = route.query && compileQueryValidator(route.query);
    const validateBody: BodyValidator | undefined =
      readsBody && route.requestSchema ? compileBodyValidator(route.requestSchema) : undefined;
    const noStore = route.carriesCredentials === true;
    // A stream cannot be replayed as it was sent: its route refuses the header rather than charge a retry again.
    const refusesIdempotencyKey = route.stream === true;
    /** Steps 3 onwards, once the caller may use the route: the status when answered here, undefined when not yet. */
    const proceed = (exchange: Exchange): number | undefined => {
      const { ctx } = exchange;
      if (refusesIdempotencyKey && ctx.req.headers['idempotency-key'] !== undefined)
        throw apiError('idempotency_not_supported');
      if (validateQuery) ctx.query = validateQuery(ctx.req.query as Record<string, unknown>);
      if (readsBody) {
        void this.continueWithBody(route, exchange, validateBody);
        return undefined;
      }
      if (audit?.snapshots) {
        // The settings as they were, read before the handler changes them: the rest waits for that read.
        void this.continueWithResult(
          exchange,
          audit.snapshot(ctx).then(async (before) => {
            exchange.before = before;
            await this.charge(route, exchange);
            return route.handler(ctx);
          }),
        );
        return undefined;
      }
      const charging = this.charge(route, exchange);
      if (charging) {
        void this.continueWithResult(
          exchange,
          charging.then(() => route.handler(ctx)),
        );
        return undefined;
      }
      const result = route.handler(ctx);
      // A write's audit event is stored before its answer goes out, which takes the asynchronous path.
      if (isPromiseLike(result) || audit) {
        void this.continueWithResult(exchange, result);
        return undefined;
      }
      exchange.result = result;
      sendResult(ctx.res, result, exchange.headers);
      return ctx.res.statusCode;
    };
    return (req: Request, res: ServerResponse) => {
      const exchange = new Exchange(
        new PipelineRequestContext(
          requestIdFor(req.headers['x-request-id']),
          req,
          res,
          callerIp(req, this.config.trustProxy),
          this.clock.now(),
          this.rootLog,
        ),
        label,
        accessLog,
        meter,
        route.errorFormat,
        audit,
      );
      // A secret in an answer must not stay in a browser's or a proxy's cache (also on that route's errors).
      if (noStore) exchange.headers['Cache-Control'] = 'no-store';
      let authorizing: ValueOrPromise<void>;
      try {
        if (!route.ungated) {
          this.lifecycle.enter();
          exchange.entered = true;
        }
        authorizing = this.authorize(route, exchange.ctx, label, exchange.headers);
      } catch (err) {
        return this.finish(exchange, this.fail(exchange, err));
      }
      if (authorizing) return this.continueAuthorized(exchange, authorizing, proceed);
      this.settle(exchange, proceed);
    };
  }

  /** The rest of a request whose steps 2 to 5 read storage (a credential or space not memoised). */
  private async continueAuthorized(
    exchange: Exchange,
    authorizing: Promise<void>,
    proceed: (exchange: Exchange) => number | undefined,
  ): Promise<void> {
    try {
      await authorizing;
    } catch (err) {
      return this.finish(exchange, this.fail(exchange, err));
    }
    this.settle(exchange, proceed);
  }

  /** Runs `step`; finishes the request here unless the step handed it to an async continuation (undefined). */
  private settle(exchange: Exchange, step: (exchange: Exchange) => number | undefined): void {
    let status: number;
    try {
      const answered = step(exchange);
      if (answered === undefined) return;
      status = answered;
    } catch (err) {
      status = this.fail(exchange, err);
    }
    this.finish(exchange, status);
  }

  /** Step 6 onwards for routes with a JSON (or a visitor's form) body. */
  private async continueWithBody(
    route: HostRoute,
    exchange: Exchange,
    validateBody: BodyValidator | undefined,
  ): Promise<void> {
    const { ctx } = exchange;
    let status = 500;
    try {
      const limit = route.maxBodyBytes ?? this.config.jsonBodyLimit;
      ctx.body =
        route.body === 'form' ? await readFormBody(ctx.req, limit) : await readJsonBody(ctx.req, ctx.res, limit);
      validateBody?.(ctx.body);
      if (route.spaceInBody !== undefined)
        await this.authorizeSpace(
          route,
          ctx,
          String((ctx.body as Record<string, unknown>)[route.spaceInBody]),
          exchange.headers,
        );
      if (route.idempotent) {
        const outcome = await this.idempotent.begin(ctx, exchange.label, exchange.headers);
        if (outcome.kind === 'replayed') {
          exchange.audit = undefined;
          return this.finish(exchange, outcome.status);
        }
        if (outcome.kind === 'held') exchange.idempotency = outcome.scope;
      }
      if (exchange.audit?.snapshots) exchange.before = await exchange.audit.snapshot(ctx);
      await this.charge(route, exchange);
      let result = route.handler(ctx);
      if (isPromiseLike(result)) result = await result;
      await this.recordBeforeAnswer(exchange, result);
      if (exchange.idempotency) await this.idempotent.answer(ctx.res, exchange.idempotency, result, exchange.headers);
      else sendResult(ctx.res, result, exchange.headers);
      status = ctx.res.statusCode;
    } catch (err) {
      if (!ctx.res.headersSent) await this.undoFailed(exchange);
      status = this.fail(exchange, err);
    }
    this.finish(exchange, status);
  }

  /** The end of a request whose handler answered asynchronously, or of a write (its audit event first). */
  private async continueWithResult(exchange: Exchange, pending: unknown): Promise<void> {
    let status = 500;
    try {
      const result = await pending;
      await this.recordBeforeAnswer(exchange, result);
      sendResult(exchange.ctx.res, result, exchange.headers);
      status = exchange.ctx.res.statusCode;
    } catch (err) {
      if (!exchange.ctx.res.headersSent) await this.undoFailed(exchange);
      status = this.fail(exchange, err);
    }
    this.finish(exchange, status);
  }

  /**
   * Keeps what the handler answered and, for a successful write, stores its audit event before the answer is sent:
   * a client that reads the audit log right after the answer finds the change there (read-your-writes), on every
   * backend. A handler that already wrote its answer itself is recorded after it, in `finish`. Recording never throws
   * (a failure is logged): the change happened, and its answer is sent either way.
   */
  private async recordBeforeAnswer(exchange: Exchange, result: unknown): Promise<void> {
    exchange.result = result;
    const audit = exchange.audit;
    if (!audit || exchange.ctx.res.headersSent || statusOf(result) >= 400) return;
    exchange.audit = undefined;
    await audit.record(exchange.ctx, result, exchange.before);
  }

  /**
   * Step 7: the route's own `check`, then its price reserved from the space's credit pool. The check comes first so
   * that a request the route refuses anyway (a bad value, an unknown conversation) moves no credits: no `consumo`
   * and `reembolso` pair in the history, and its own 4xx rather than a 402 on an empty pool. Undefined for a free
   * request checked synchronously, so it stays on the synchronous path; a paid one waits for the ledger.
   */
  private charge(route: HostRoute, exchange: Exchange): Promise<void> | undefined {
    const checking = route.check?.(exchange.ctx);
    if (isPromiseLike(checking)) return Promise.resolve(checking).then(() => this.reserve(route, exchange));
    return this.reserve(route, exchange);
  }

  /** The request's price (the route's `creditsFor`, else its `credits`), taken from the pool. */
  private reserve(route: HostRoute, exchange: Exchange): Promise<void> | undefined {
    const price = route.creditsFor ? route.creditsFor(exchange.ctx) : (route.credits ?? 0);
    if (typeof price !== 'number') return price.then((cost) => this.debit(cost, exchange));
    return this.debit(price, exchange);
  }

  /** Takes `cost` from the space's credit pool and remembers it for the refund of a failure. */
  private debit(cost: number, exchange: Exchange): Promise<void> | undefined {
    const { ctx } = exchange;
    const space = ctx.space;
    if (!(cost > 0 && space)) return undefined;
    return this.credits
      .debit(space.accountId, cost, {
        spaceId: space.id,
        route: exchange.label,
        requestId: ctx.id,
        hold: exchange.idempotency,
      })
      .then(() => {
        exchange.charged = { accountId: space.accountId, amount: cost };
      });
  }

  private fail(exchange: Exchange, err: unknown): number {
    try {
      settleUnreadBody(exchange.ctx.req, exchange.ctx.res, exchange.headers);
      return sendError(
        exchange.ctx.res,
        err,
        exchange.ctx.log,
        exchange.ctx.id,
        exchange.headers,
        exchange.errorFormat,
      );
    } catch (sendFailure) {
      // Nothing sensible can be written any more; the client sees the connection close. finish() must still run.
      exchange.ctx.log.error({ err: sendFailure }, 'no se pudo enviar la respuesta de error');
      exchange.ctx.res.destroy();
      return 500;
    }
  }

  /**
   * Gives back what a failed request held: its credits (a `reembolso`) and its `Idempotency-Key`, each once. Awaited
   * before a handler's failure is answered, so that a client reading its balance or retrying the key right after the
   * error sees it done on every backend (PostgreSQL writes after the promise, not before it settles). Never throws:
   * a failure is logged; a key that could not be freed only makes its retry wait a lease.
   */
  private async undoFailed(exchange: Exchange): Promise<void> {
    const { ctx, charged, idempotency } = exchange;
    exchange.charged = null;
    exchange.idempotency = null;
    const releasing = idempotency
      ? this.idempotent.release(idempotency).catch((err: unknown) => {
          ctx.log.error({ err }, 'no se pudo liberar la clave de idempotencia de una petición fallida');
        })
      : undefined;
    const refunding = charged
      ? this.credits
          .credit(charged.accountId, charged.amount, 'reembolso', {
            spaceId: ctx.space?.id,
            route: exchange.label,
            requestId: ctx.id,
            hold: idempotency,
          })
          .then(
            () => undefined,
            (err: unknown) =>
              ctx.log.error(
                { err, cuenta: charged.accountId, creditos: charged.amount },
                'no se pudo reembolsar una petición fallida',
              ),
          )
      : undefined;
    await Promise.all([releasing, refunding]);
  }

  /** Leaving the in-flight count, the refund of a failed paid request, the route's meter and the access log line. */
  private finish(exchange: Exchange, status: number): void {
    const { ctx } = exchange;
    if (exchange.entered) this.lifecycle.leave();
    // A failure answered after its handler threw was undone before the answer (undoFailed); any other (a refusal
    // from a later step, an answer that could not be sent) is undone now, the answer being already sent.
    if (status >= 400) void this.undoFailed(exchange);
    // Only changes that happened: a refusal or failure changed nothing (a failed sign-in is recorded by its route).
    // Normally recorded before the answer (recordBeforeAnswer); here only when the handler wrote its answer itself.
    if (exchange.audit && status < 400) void exchange.audit.record(ctx, exchange.result, exchange.before);
    // From the pipeline's entry: the context's arrival time (one clock read per request fewer; the clock costs
    // 50-100 ns a read on the 2-core machine).
    const ms = performance.now() - ctx.arrivedAt;
    exchange.meter.record(status, ms, ctx.queuedMs);
    exchange.accessLog(
      ctx.id,
      status,
      Math.round(ms * 100) / 100,
      Math.round(ctx.queuedMs * 100) / 100,
      ctx.space?.id,
      ctx.caller?.kind === 'key' ? ctx.caller.key.id : undefined,
    );
  }

  /**
   * Step 2: the Authorization header, or without one the Studio session cookie. A state-changing call made with
   * the cookie must carry the session's `X-CSRF-Token` (a browser sends the cookie by itself; only the owner's page
   * knows the token). Bearer calls are not affected: no browser attaches them on its own.
   */
  private callerOf(req: Request, since: number): ValueOrPromise<Caller> {
    const authorization = req.headers.authorization;
    if (authorization !== undefined || req.headers.cookie === undefined)
      return this.authenticator.authenticate(authorization, since);
    const secure = requestIsSecure(req, this.config.trustProxy);
    const cookie = sessionCookieOf(req, secure);
    if (cookie === undefined) return this.authenticator.authenticate(authorization, since);
    return this.cookieCaller(req, cookie, secure);
  }

  private async cookieCaller(req: Request, cookie: string, secure: boolean): Promise<Caller> {
    const caller = await this.authenticator.authenticateCookie(cookie, secure);
    if (STATE_CHANGING.has(req.method ?? '') && !csrfMatches(req.headers['x-csrf-token'], caller.csrf))
      throw apiError('csrf_invalid');
    return caller;
  }

  /** Steps 2 to 5. Adds the rate-limit headers to `headers`. */
  private authorize(
    route: HostRoute,
    ctx: RequestContext,
    label: string,
    headers: Record<string, string>,
  ): ValueOrPromise<void> {
    if (route.access === 'public') return;
    if (route.access === 'visitor') return this.authorizeVisitor(route, ctx, headers);
    const caller = this.callerOf(ctx.req, ctx.arrivedAt);
    return caller instanceof Promise
      ? caller.then((c) => this.authorizeCaller(route, ctx, label, headers, c))
      : this.authorizeCaller(route, ctx, label, headers, caller);
  }

  /**
   * Steps 2 to 5 for a visitor on a public route: no credential is read (a key or cookie sent along is ignored).
   * The address is counted first, so a flood of made-up paths is refused before it reads the directory; then the
   * space must exist, be in good standing and have the route's module, else the same 404 as an unknown page.
   */
  private async authorizeVisitor(route: HostRoute, ctx: RequestContext, headers: Record<string, string>) {
    await this.rateLimiter.takeAddress(
      { ip: ctx.ip, route: route.operationId, perMinute: route.perAddressPerMinute ?? 60, now: ctx.now },
      headers,
    );
    const access = await this.policy.authorizeVisitor({
      spaceId: ctx.params.espacio ?? '',
      module: route.module ?? '',
      now: ctx.now,
      since: ctx.arrivedAt,
    });
    ctx.space = access.space;
    ctx.spaceRecord = access.record;
    ctx.permission = 'lee';
  }

  /** Steps 3 to 5 for an authenticated caller: synchronous unless the space must be read (step 4). */
  private authorizeCaller(
    route: HostRoute,
    ctx: RequestContext,
    label: string,
    headers: Record<string, string>,
    caller: Caller,
  ): ValueOrPromise<void> {
    ctx.caller = caller;
    if (route.access === 'admin') {
      if (caller.kind !== 'operator') throw apiError('admin_only');
      return;
    }
    if (caller.kind === 'operator')
      throw apiError('admin_only', 'Las credenciales de operador solo sirven para las rutas /api/admin.');
    // A member reaches a space's routes by their role there (step 4), and of the rest only those open to members.
    if (caller.kind === 'member' && route.access !== 'space' && route.members !== true)
      throw apiError('member_not_allowed');
    if (route.access === 'console') {
      if (caller.kind === 'key') throw apiError('console_only');
      return;
    }
    if (caller.kind === 'key') {
      if (route.studioOnly === true) throw apiError('console_only');
      this.usage.countKeyCall(caller.key.id, label, ctx.now);
    }
    if (route.access === 'owner' || route.spaceInBody !== undefined) return;
    return this.authorizeSpace(route, ctx, ctx.params.espacio ?? '', headers);
  }

  /** Steps 4 and 5 for the space a request names (in its path, or in its body for `spaceInBody` routes). */
  private async authorizeSpace(
    route: HostRoute,
    ctx: RequestContext,
    spaceId: string,
    headers: Record<string, string>,
  ): Promise<void> {
    const caller = ctx.caller!;
    const access = await this.policy.authorize(caller as SpaceCaller, {
      spaceId,
      permission: route.permission ?? 'escribe',
      module: route.module,
      moduleDisabledDetail: route.moduleDisabledDetail,
      memberRole: route.memberRole,
      ip: ctx.ip,
      now: ctx.now,
      since: ctx.arrivedAt,
    });
    ctx.space = access.space;
    ctx.spaceRecord = access.record;
    ctx.permission = access.permission;
    if (caller.kind !== 'key') return;
    const { settings } = access.record;
    // The space's own settings stay reachable for a write key of its owner: a limit set too low can be undone.
    const settingsByWriter = route.spaceSettings === true && access.permission === 'escribe';
    return this.rateLimiter.take(
      {
        spaceId: access.space.id,
        space: settingsByWriter ? null : { perMinute: settings.limite_por_minuto, daily: settings.cuota_diaria },
        keyId: caller.key.id,
        key: caller.key.limits,
        now: ctx.now,
      },
      headers,
    );
  }
}
