import { createToken } from '@cerebro/sdk';
import type { IdempotencyScope, StoredAnswer } from '../../idempotency/idempotency-services.js';

/** Who holds a key while its request runs: a process and the lease it renews. */
export interface HoldState {
  owner: string | null;
  leaseUntil: number | null;
}

/** What a held request was charged, to refund should its process die before it answers. */
export interface HeldCharge {
  accountId: string;
  amount: number;
  spaceId: string;
  route: string;
}

/** How the store decides about holds left by dead processes; both run inside the repository's transaction. */
export interface AbandonedHolds {
  /** Whether a hold was left by a process that died (its lease ran out, or its process is gone). */
  abandoned(hold: HoldState): boolean;
  /** Gives back what an abandoned hold had charged. Called synchronously inside the transaction that frees it. */
  refund(charge: HeldCharge): unknown;
}

export interface ClaimRequest {
  scope: IdempotencyScope;
  fingerprint: string;
  now: number;
  /** This process, which will hold the key. */
  owner: string;
  leaseUntil: number;
  /** Stored answers created at or before this time are purged first (they are past the TTL). */
  purgeBefore: number;
}

/**
 * What claiming decided: `run` (the key is now held by the claimer), `replay` a stored answer for the same body,
 * `reused` (the key holds another body) or `in_flight` (another live request holds it).
 */
export type ClaimResult =
  | { kind: 'run' }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'reused' }
  | { kind: 'in_flight' };

/**
 * The stored answers of requests sent with an `Idempotency-Key`, and the holds of requests still running.
 *
 * Guarantees: `claim` and `freeAbandoned` are each ONE immediate (write-locking) transaction: of two claims of the
 * same key, in any processes, exactly one gets `run`; an abandoned hold is refunded and freed (or taken over) in
 * the same transaction, so its charge is given back exactly once.
 */
export interface IdempotencyRepository {
  claim(request: ClaimRequest, holds: AbandonedHolds): Promise<ClaimResult>;
  /** Frees every hold not owned by `exceptOwner` that `holds` finds abandoned, refunding it. How many were freed. */
  freeAbandoned(exceptOwner: string, holds: AbandonedHolds): Promise<number>;
  /** Stores the answer of a held key. */
  complete(scope: IdempotencyScope, answer: StoredAnswer): Promise<void>;
  /** Frees a held key (not a stored answer). */
  release(scope: IdempotencyScope): Promise<void>;
  /** Pushes the lease of every hold of `owner` to `leaseUntil`. */
  renew(owner: string, leaseUntil: number): Promise<void>;
}

export const IdempotencyRepositoryToken = createToken<IdempotencyRepository>('host:idempotency-repository');
