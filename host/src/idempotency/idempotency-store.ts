import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import { HostTokens } from '../kernel/tokens.js';
import type { CreditLedger } from '../credits/credit-services.js';
import {
  type AbandonedHolds,
  type HoldState,
  type IdempotencyRepository,
  IdempotencyRepositoryToken,
} from '../storage/port/idempotency-repository.js';
import type { IdempotencyClaim, IdempotencyScope, IdempotencyStore, StoredAnswer } from './idempotency-services.js';
import { PROCESS_OWNER, ownerIsGone } from '../storage/shared/process-owner.js';

/**
 * How long a hold outlives its process's last renewal. The holding process renews its holds every third of it while
 * their requests run; a hold past its lease belongs to a process that died (killed, crashed) and is taken over.
 */
export const HOLD_LEASE_MS = 30_000;

/** How long a stored answer is replayed (the draft's suggested minimum is 24 h). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The stored answers of requests sent with an `Idempotency-Key`. Claiming a key is one immediate transaction of the
 * repository, so two requests with the same key can never both run, in this process or in another one sharing the
 * database. A hold carries its owner (this process) and a lease the owner renews; only a hold whose lease ran out
 * is taken over, and what its dead owner had charged is refunded then, so the retry that runs is the only one paid
 * for.
 */
@injectable()
export class LeasedIdempotencyStore implements IdempotencyStore {
  /** Keys this process holds, renewed together while any is held. */
  private readonly held = new Set<string>();
  private renewal: NodeJS.Timeout | null = null;
  /** How holds of dead processes are recognised and refunded (inside the repository's transactions). */
  private readonly abandonedHolds: AbandonedHolds;
  /** Start-up's freeing of dead processes' holds: claims wait for it, so none races with it. */
  private readonly started: Promise<number>;

  constructor(
    @inject(IdempotencyRepositoryToken) private readonly repo: IdempotencyRepository,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(HostTokens.Credits) private readonly credits: CreditLedger,
  ) {
    this.abandonedHolds = {
      abandoned: (hold) => abandoned(hold, this.clock.now()),
      // The SQLite ledger writes before its promise settles, so the refund commits with the repository's
      // transaction; a rejection only means the account no longer exists (nothing to give back). A PostgreSQL
      // idempotency repository must take the refund into its own transaction.
      refund: (charge) =>
        this.credits
          .credit(charge.accountId, charge.amount, 'reembolso', { spaceId: charge.spaceId, route: charge.route })
          .catch(() => undefined),
    };
    this.started = this.freeExpired();
  }

  /**
   * Frees the holds whose process died (their lease ran out), refunding what they had charged: their requests will
   * never answer, and their retries must not get 409 for a day. Holds of live processes, renewed, stay.
   */
  freeExpired(): Promise<number> {
    return this.repo.freeAbandoned(PROCESS_OWNER, this.abandonedHolds);
  }

  /**
   * Holds `scope` for a new request, or returns the answer stored for the same body. Expired answers are purged
   * first, so a key older than the TTL runs (and pays) again.
   * @throws 422 `idempotency_key_reused` for another body, 409 `idempotency_in_flight` while the first one runs.
   */
  async claim(scope: IdempotencyScope, fingerprint: string): Promise<IdempotencyClaim> {
    await this.started;
    const now = this.clock.now();
    const claim = await this.repo.claim(
      {
        scope,
        fingerprint,
        now,
        owner: PROCESS_OWNER,
        leaseUntil: now + HOLD_LEASE_MS,
        purgeBefore: now - IDEMPOTENCY_TTL_MS,
      },
      this.abandonedHolds,
    );
    if (claim.kind === 'reused') throw apiError('idempotency_key_reused');
    if (claim.kind === 'in_flight') throw apiError('idempotency_in_flight');
    if (claim.kind === 'run') this.holding(scope, true);
    return claim;
  }

  /** Stores the answer of a held key; retries within the TTL get it. */
  async complete(scope: IdempotencyScope, answer: StoredAnswer): Promise<void> {
    await this.repo.complete(scope, answer);
    this.holding(scope, false);
  }

  /** Frees a held key whose request failed (and was refunded), so the client may retry it with the same key. */
  async release(scope: IdempotencyScope): Promise<void> {
    await this.repo.release(scope);
    this.holding(scope, false);
  }

  /** Keeps this process's holds leased while it holds any. */
  private holding(scope: IdempotencyScope, held: boolean): void {
    const id = `${scope.caller}\u0000${scope.spaceId}\u0000${scope.route}\u0000${scope.key}`;
    if (held) this.held.add(id);
    else this.held.delete(id);
    if (this.held.size > 0 && !this.renewal) {
      this.renewal = setInterval(() => {
        this.repo.renew(PROCESS_OWNER, this.clock.now() + HOLD_LEASE_MS).catch(() => {
          // A busy or closed database: the next tick tries again; a lease that runs out only allows a retry.
        });
      }, HOLD_LEASE_MS / 3);
      this.renewal.unref();
    } else if (this.held.size === 0 && this.renewal) {
      clearInterval(this.renewal);
      this.renewal = null;
    }
  }
}

/** A hold whose process died: its lease ran out, or its owner is another process that no longer exists. */
function abandoned(hold: HoldState, now: number): boolean {
  return (hold.leaseUntil ?? 0) <= now || (hold.owner !== PROCESS_OWNER && ownerIsGone(hold.owner));
}
