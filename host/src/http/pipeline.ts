import type { ServerResponse } from 'node:http';
import type { Logger as PinoLogger } from 'pino';
import type { Middleware, Request } from 'polka';
import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import type { Authenticator } from '../access/authenticator.js';
import type { Caller, OwnerCaller } from '../access/caller.js';
import type { SpaceAccessPolicy } from '../access/space-access.js';
import type { HostConfig } from '../config/host-config.js';
import type { CreditLedger } from '../credits/credit-ledger.js';
import type { Lifecycle } from '../kernel/lifecycle.js';
import { HostTokens } from '../kernel/tokens.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { UsageCounters } from '../limits/usage-counters.js';
import { readJsonBody } from './json-body.js';
import { callerIp, disconnectSignal, requestIdFor, type RequestContext } from './request-context.js';
import { sendError, sendResult } from './respond.js';
import { routeLabel, type HostRoute } from './route.js';

/**
 * The request pipeline every route runs through, host-owned or plugin-contributed. The order is fixed and
 * documented in the README ("Orden de comprobaciones"):
 *
 *  1. readiness (503 while starting or stopping)
 *  2. authentication (401)                         — not for public routes
 *  3. caller kind: admin routes for the operator only, other routes for owners (403)
 *  4. space access: reach → trial → payment (402) → API switch and IP list (keys) → module → permission (403)
 *  5. call counting (keys), rate limit per minute and daily quota of the space (429, keys)
 *  6. body: JSON limits and syntax (413, 415, 400)
 *  7. credits reserved before the handler (402), refunded if the handler fails
 *  8. the handler
 *
 * Plugins only provide step 8: the route data (permission, module, credits) comes from their manifest and the
 * pipeline applies it, so a plugin cannot skip or weaken any check.
 */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

@injectable()
export class RequestPipeline {
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
  ) {}

  /** The polka handler of one route. */
  handlerFor(route: HostRoute): Middleware {
    const label = routeLabel(route);
    return async (req: Request, res: ServerResponse) => {
      const started = process.hrtime.bigint();
      const id = requestIdFor(req.headers['x-request-id']);
      // The per-request child logger and the disconnect signal are built only if something uses them:
      // most requests need neither, and both cost a measurable share of a small request.
      let log: PinoLogger | undefined;
      let signal: AbortSignal | undefined;
      const rootLog = this.rootLog;
      const ctx: RequestContext = {
        id, req, res,
        get log() { return (log ??= rootLog.child({ reqId: id })); },
        get signal() { return (signal ??= disconnectSignal(req, res)); },
        ip: callerIp(req, this.config.trustProxy),
        now: this.clock.now(),
        params: req.params,
        query: req.query as Record<string, string | string[]>,
        body: undefined,
      };
      let entered = false;
      // Sent with writeHead rather than setHeader: Node's fast path for a response whose headers come in one object.
      let headers: Record<string, string> = { 'X-Request-Id': id };
      let charged: { accountId: string; amount: number } | null = null;
      let status = 500;
      try {
        if (!route.ungated) {
          this.lifecycle.enter();
          entered = true;
        }
        this.authorize(route, ctx, label, headers);
        // Awaits only where something is asynchronous: a request that needs neither a body nor an async handler
        // is answered synchronously, inside the HTTP parser's callback, like a bare route.
        if (route.body === 'json' || (route.body === undefined && BODY_METHODS.has(route.method))) {
          ctx.body = await readJsonBody(req, res, route.maxBodyBytes ?? this.config.jsonBodyLimit);
        }
        const cost = route.creditsFor ? route.creditsFor(ctx) : (route.credits ?? 0);
        if (cost > 0 && ctx.space) {
          this.credits.debit(ctx.space.accountId, cost, { spaceId: ctx.space.id, route: label, requestId: id });
          charged = { accountId: ctx.space.accountId, amount: cost };
        }
        let result = route.handler(ctx);
        if (isPromiseLike(result)) result = await result;
        sendResult(res, result, headers);
        status = res.statusCode;
      } catch (err) {
        status = sendError(res, err, ctx.log, id, headers);
      } finally {
        if (charged && status >= 400) {
          this.credits.credit(charged.accountId, charged.amount, 'reembolso', { spaceId: ctx.space?.id, route: label, requestId: id });
        }
        if (entered) this.lifecycle.leave();
        this.rootLog.info({
          reqId: id, method: route.method, route: label, status,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          espacio: ctx.space?.id,
          clave: ctx.caller?.kind === 'key' ? ctx.caller.key.id : undefined,
        }, 'petición');
      }
    };
  }

  /** Steps 2 to 5. Adds the rate-limit headers to `headers`. */
  private authorize(route: HostRoute, ctx: RequestContext, label: string, headers: Record<string, string>): void {
    if (route.access === 'public') return;
    const caller: Caller = this.authenticator.authenticate(ctx.req.headers.authorization);
    ctx.caller = caller;
    if (route.access === 'admin') {
      if (caller.kind !== 'operator') throw apiError('admin_only');
      return;
    }
    if (caller.kind === 'operator') throw apiError('admin_only', 'Las credenciales de operador solo sirven para las rutas /api/admin.');
    if (caller.kind === 'key') this.usage.countKeyCall(caller.key.id, label, ctx.now);
    if (route.access === 'owner') return;

    const access = this.policy.authorize(caller as OwnerCaller, {
      spaceId: ctx.params.espacio ?? '',
      permission: route.permission ?? 'escribe',
      module: route.module,
      moduleDisabledDetail: route.moduleDisabledDetail,
      ip: ctx.ip,
      now: ctx.now,
    });
    ctx.space = access.space;
    ctx.spaceRecord = access.record;
    ctx.permission = access.permission;
    if (caller.kind !== 'key') return;
    this.rateLimiter.take(access.space.id, access.record.settings.limite_por_minuto, ctx.now, headers);
    this.usage.takeDaily(access.space.id, access.record.settings.cuota_diaria, ctx.now);
  }
}
