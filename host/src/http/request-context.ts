import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Logger as PinoLogger } from 'pino';
import type { Request } from 'polka';
import type { Permission, QueryValue, SpaceContext } from '@cerebro/sdk';
import type { Caller } from '../access/caller.js';
import type { SpaceRecord } from '../access/records.js';
import type { AuditActor } from '../audit/audit-actor.js';
import { trustedCallerAddress, type ProxyTrust } from '../config/proxy-trust.js';

/** The query of a request before validation, and of any route without a `query` declaration: nothing to read. */
export const NO_QUERY: Readonly<Record<string, QueryValue>> = Object.freeze(
  Object.create(null) as Record<string, QueryValue>,
);

/**
 * What a handler adds to the audit event of its request when the pipeline cannot see it (the key a creation
 * made, who a sign-in was for). Never a secret or a document's text.
 */
export interface AuditNote {
  action?: string;
  actor?: AuditActor;
  target?: { kind: string; id: string };
  ownerId?: string;
  spaceId?: string;
  details?: Record<string, unknown>;
  /** What the change replaced, when the route has no GET to read it back (`snapshot`). */
  before?: unknown;
  after?: unknown;
}

/** Everything known about one request once the pipeline has run. */
export interface RequestContext {
  readonly id: string;
  readonly req: Request;
  readonly res: ServerResponse;
  readonly log: PinoLogger;
  readonly ip: string;
  readonly now: number;
  /**
   * `performance.now()` when the pipeline took the request: a version check of the memoised access data that
   * started after it is fresh enough for this request (see `MemoisedAccessDirectory`).
   */
  readonly arrivedAt: number;
  readonly signal: AbortSignal;
  params: Record<string, string>;
  /** The route's declared query parameters, validated and converted by the pipeline. */
  query: Readonly<Record<string, QueryValue>>;
  body: unknown;
  caller?: Caller;
  space?: SpaceContext;
  spaceRecord?: SpaceRecord;
  permission?: Permission;
  /**
   * Milliseconds the request waited for a turn before its work began (a space's question line); the access log
   * says it as `espera_ms` and metrics count it in `cerebro_peticion_espera_segundos`.
   */
  queuedMs?: number;
  /** Set by a handler for the audit event of this request (see `HostRouteAudit`). */
  audit?: AuditNote;
}

/**
 * The context of one request as the pipeline builds it. A class rather than an object literal with getters:
 * the lazy accessors live once on the prototype instead of as two closures per request, and every context has
 * the same shape. The per-request child logger and the disconnect signal are built only if something asks for
 * them; most requests need neither, and both cost a measurable share of a small request.
 */
export class PipelineRequestContext implements RequestContext {
  body: unknown = undefined;
  caller?: Caller;
  space?: SpaceContext;
  spaceRecord?: SpaceRecord;
  permission?: Permission;
  queuedMs = 0;
  audit?: AuditNote;
  params: Record<string, string>;
  query: Readonly<Record<string, QueryValue>> = NO_QUERY;
  readonly arrivedAt = performance.now();
  private childLog: PinoLogger | undefined;
  private disconnect: AbortSignal | undefined;

  constructor(
    readonly id: string,
    readonly req: Request,
    readonly res: ServerResponse,
    readonly ip: string,
    readonly now: number,
    private readonly rootLog: PinoLogger,
  ) {
    this.params = req.params;
  }

  get log(): PinoLogger {
    return (this.childLog ??= this.rootLog.child({ reqId: this.id }));
  }

  get signal(): AbortSignal {
    return (this.disconnect ??= disconnectSignal(this.req, this.res));
  }
}

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Keeps a well-formed `X-Request-Id` from the caller (useful across services); otherwise makes a new one. */
export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && INCOMING_ID.test(header) ? header : randomUUID();
}

/**
 * The caller's IP: the socket's peer, or behind our own proxies the first untrusted address of `X-Forwarded-For`
 * counted from the right (`proxy-addr`); never the leftmost entry, which the client writes.
 */
export function callerIp(req: Request, trustProxy: ProxyTrust | null): string {
  return trustProxy ? trustedCallerAddress(req, trustProxy) : (req.socket.remoteAddress ?? '');
}

/**
 * An AbortSignal that fires when the client disconnects before the response is complete. Built lazily, so it
 * checks the socket as it is now: a fully read request is "destroyed" (auto-destroy) while its client still waits,
 * so only the socket and the response tell whether anyone is listening.
 */
export function disconnectSignal(req: Request, res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  const gone = () => !res.writableFinished && (res.destroyed || req.socket.destroyed);
  if (gone()) {
    controller.abort(new Error('client disconnected'));
    return controller.signal;
  }
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  return controller.signal;
}
