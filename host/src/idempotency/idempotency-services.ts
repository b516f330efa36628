// The interfaces of Idempotency-Key handling, which the host's tokens are typed by: the pipeline depends on these
// shapes, not on the classes that implement them.
import type { ServerResponse } from 'node:http';
import type { RequestContext } from '../http/request-context.js';

/** Who sent a request with a key, to what: a key only ever matches requests of the same caller, space and route. */
export interface IdempotencyScope {
  caller: string;
  spaceId: string;
  route: string;
  key: string;
}

/** A finished answer as it is sent and replayed. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the first look at a key decided: run the request (the key is now held) or replay the stored answer. */
export type IdempotencyClaim = { kind: 'run' } | { kind: 'replay'; answer: StoredAnswer };

/** The stored answers of requests sent with an `Idempotency-Key`. */
export interface IdempotencyStore {
  /**
   * Holds `scope` for a new request, or returns the answer stored for the same body.
   * @throws 422 `idempotency_key_reused` for another body, 409 `idempotency_in_flight` while the first one runs.
   */
  claim(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyClaim>;
  /** Stores the answer of a held key; retries within the TTL get it. */
  complete(scope: IdempotencyScope, answer: StoredAnswer): Promise<void>;
  /** Frees a held key whose request failed (and was refunded), so the client may retry it with the same key. */
  release(scope: IdempotencyScope): Promise<void>;
}

export type IdempotencyOutcome =
  | { kind: 'none' }
  | { kind: 'held'; scope: IdempotencyScope }
  | { kind: 'replayed'; status: number };

/** `Idempotency-Key` on the routes flagged `idempotent`, as the pipeline uses it. */
export interface IdempotentRequests {
  /** Holds the key for this request, replays the stored answer (nothing else runs), or does nothing without a key. */
  begin(ctx: RequestContext, route: string, headers: Record<string, string>): Promise<IdempotencyOutcome>;
  /** Sends the handler's result; a successful JSON or text answer is stored first for the key's retries. */
  answer(res: ServerResponse, scope: IdempotencyScope, result: unknown, headers: Record<string, string>): Promise<void>;
  /** Frees the key of a request that failed. */
  release(scope: IdempotencyScope): Promise<void>;
}
