import type { ServerResponse } from 'node:http';
import { inject, injectable } from 'tsyringe';
import { Reply } from '@cerebro/sdk';
import type { RequestContext } from '../http/request-context.js';
import { sendResult } from '../http/respond.js';
import { HostTokens } from '../kernel/tokens.js';
import { readIdempotencyKey, requestFingerprint } from './idempotency-key.js';
import type {
  IdempotencyOutcome,
  IdempotencyScope,
  IdempotencyStore,
  IdempotentRequests,
  StoredAnswer,
} from './idempotency-services.js';

/** The header a replayed answer carries, so a client can tell it from a fresh one. */
export const REPLAY_HEADER = 'Idempotent-Replayed';

/** Headers of the first answer worth replaying (the request id and rate-limit headers belong to each request). */
const REPLAYED_HEADERS = new Set(['content-type', 'location', 'retry-after']);

/**
 * `Idempotency-Key` on the routes flagged `idempotent` (draft-ietf-httpapi-idempotency-key-header): the pipeline
 * calls `begin` after the body passed validation and before credits are reserved, and `answer` with what the
 * handler returned. Only successful answers are stored: a failed request was refunded, so its retry may run again.
 */
@injectable()
export class StoredIdempotentRequests implements IdempotentRequests {
  constructor(@inject(HostTokens.Idempotency) private readonly store: IdempotencyStore) {}

  /** Holds the key for this request, replays the stored answer (nothing else runs), or does nothing without a key. */
  async begin(ctx: RequestContext, route: string, headers: Record<string, string>): Promise<IdempotencyOutcome> {
    const key = readIdempotencyKey(ctx.req.headers['idempotency-key']);
    if (key === undefined || !ctx.space || !ctx.caller || ctx.caller.kind === 'operator') return { kind: 'none' };
    const caller = ctx.caller.kind === 'key' ? `clave:${ctx.caller.key.id}` : `sesion:${ctx.caller.sessionId}`;
    const scope: IdempotencyScope = { caller, spaceId: ctx.space.id, route, key };
    const claim = await this.store.claim(scope, requestFingerprint(ctx.body));
    if (claim.kind === 'run') return { kind: 'held', scope };
    headers[REPLAY_HEADER] = 'true';
    send(ctx.res, claim.answer, headers);
    return { kind: 'replayed', status: claim.answer.status };
  }

  /** Sends the handler's result; a successful JSON or text answer is stored first for the key's retries. */
  async answer(
    res: ServerResponse,
    scope: IdempotencyScope,
    result: unknown,
    headers: Record<string, string>,
  ): Promise<void> {
    const answer = storable(result);
    if (!answer || answer.status >= 400) {
      // A success that cannot be stored (bytes, a stream) frees its key, or every retry would answer 409 for a day.
      if (!answer) await this.store.release(scope);
      sendResult(res, result, headers);
      return;
    }
    await this.store.complete(scope, answer);
    send(res, answer, headers);
  }

  /** Frees the key of a request that failed. */
  release(scope: IdempotencyScope): Promise<void> {
    return this.store.release(scope);
  }
}

/** The answer as bytes on the wire, or null for one that cannot be replayed (a stream). */
function storable(result: unknown): StoredAnswer | null {
  if (result === undefined) return { status: 204, headers: {}, body: '' };
  if (!(result instanceof Reply))
    return {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(result),
    };
  if (typeof result.body !== 'string' && result.body !== undefined) return null;
  const headers: Record<string, string> = result.json ? { 'content-type': 'application/json; charset=utf-8' } : {};
  for (const [name, value] of Object.entries(result.headers))
    if (REPLAYED_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  return { status: result.status, headers, body: result.body ?? '' };
}

function send(res: ServerResponse, answer: StoredAnswer, headers: Record<string, string>): void {
  if (res.headersSent) return;
  Object.assign(headers, answer.headers);
  if (answer.status !== 204) headers['content-length'] = String(Buffer.byteLength(answer.body));
  res.writeHead(answer.status, headers);
  res.end(answer.status === 204 ? undefined : answer.body);
}
