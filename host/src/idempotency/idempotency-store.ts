import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import { HostTokens } from '../kernel/tokens.js';
import type { CreditLedger } from '../credits/credit-services.js';
import type { SqliteDatabase } from '../storage/database.js';
import type { IdempotencyClaim, IdempotencyScope, IdempotencyStore, StoredAnswer } from './idempotency-services.js';
import { PROCESS_OWNER, ownerIsGone } from '../storage/shared/process-owner.js';

/**
 * How long a hold outlives its process's last renewal. The holding process renews its holds every third of it while
 * their requests run; a hold past its lease belongs to a process that died (killed, crashed) and is taken over.
 */
export const HOLD_LEASE_MS = 30_000;

/** How long a stored answer is replayed (the draft's suggested minimum is 24 h). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

interface Row {
  fingerprint: string;
  state: 'en_curso' | 'hecha';
  owner: string | null;
  lease_until: number | null;
  charged_account: string | null;
  charged_amount: number | null;
  status: number | null;
  headers: string | null;
  body: string | null;
}

/**
 * The stored answers of requests sent with an `Idempotency-Key`. Claiming a key is one immediate transaction, so
 * two requests with the same key can never both run, in this process or in another one sharing the database. A hold
 * carries its owner (this process) and a lease the owner renews; only a hold whose lease ran out is taken over, and
 * what its dead owner had charged is refunded then, so the retry that runs is the only one paid for.
 */
@injectable()
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly stmts;
  /** Keys this process holds, renewed together while any is held. */
  private readonly held = new Set<string>();
  private renewal: NodeJS.Timeout | null = null;

  constructor(
    @inject(HostTokens.Database) private readonly db: SqliteDatabase,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(HostTokens.Credits) private readonly credits: CreditLedger,
  ) {
    const where = 'caller = ? AND space_id = ? AND route = ? AND idempotency_key = ?';
    this.stmts = {
      purge: db.prepare<[number]>('DELETE FROM idempotency_keys WHERE created_at <= ?'),
      find: db.prepare<[string, string, string, string], Row>(
        `SELECT fingerprint, state, status, headers, body, owner, lease_until, charged_account, charged_amount
           FROM idempotency_keys WHERE ${where}`,
      ),
      hold: db.prepare(
        `INSERT OR REPLACE INTO idempotency_keys (caller, space_id, route, idempotency_key, fingerprint, state, created_at,
           owner, lease_until) VALUES (?, ?, ?, ?, ?, 'en_curso', ?, ?, ?)`,
      ),
      charged: db.prepare(
        `UPDATE idempotency_keys SET charged_account = ?, charged_amount = ? WHERE ${where} AND state = 'en_curso'`,
      ),
      expired: db.prepare<[string], Row & { space_id: string; route: string; caller: string; idempotency_key: string }>(
        "SELECT * FROM idempotency_keys WHERE state = 'en_curso' AND owner IS NOT ?",
      ),
      renew: db.prepare<[number, string]>(
        "UPDATE idempotency_keys SET lease_until = ? WHERE owner = ? AND state = 'en_curso'",
      ),
      complete: db.prepare(
        `UPDATE idempotency_keys SET state = 'hecha', status = ?, headers = ?, body = ? WHERE ${where}`,
      ),
      release: db.prepare(`DELETE FROM idempotency_keys WHERE ${where} AND state = 'en_curso'`),
    };
    this.freeExpired();
  }

  /**
   * Frees the holds whose process died (their lease ran out), refunding what they had charged: their requests will
   * never answer, and their retries must not get 409 for a day. Holds of live processes, renewed, stay.
   */
  freeExpired(): number {
    return this.db
      .transaction(() => {
        const now = this.clock.now();
        const rows = this.stmts.expired.all(PROCESS_OWNER).filter((row) => abandoned(row, now));
        for (const row of rows) {
          const scope = { caller: row.caller, spaceId: row.space_id, route: row.route, key: row.idempotency_key };
          this.refundAbandoned(row, scope);
          this.stmts.release.run(scope.caller, scope.spaceId, scope.route, scope.key);
        }
        return rows.length;
      })
      .immediate();
  }

  private refundAbandoned(row: Row, scope: IdempotencyScope): void {
    // The SQLite ledger writes before its promise settles, so the refund commits with this transaction; a rejection
    // only means the account no longer exists (nothing to give back). The idempotency repository of the storage
    // port must take the refund into its own transaction.
    if (row.charged_account && row.charged_amount)
      this.credits
        .credit(row.charged_account, row.charged_amount, 'reembolso', { spaceId: scope.spaceId, route: scope.route })
        .catch(() => undefined);
  }

  /**
   * Holds `scope` for a new request, or returns the answer stored for the same body. Expired answers are purged
   * first, so a key older than the TTL runs (and pays) again.
   * @throws 422 `idempotency_key_reused` for another body, 409 `idempotency_in_flight` while the first one runs.
   */
  claim(scope: IdempotencyScope, fingerprint: string): IdempotencyClaim {
    const now = this.clock.now();
    const claim = this.db
      .transaction((): IdempotencyClaim => {
        this.stmts.purge.run(now - IDEMPOTENCY_TTL_MS);
        const row = this.stmts.find.get(scope.caller, scope.spaceId, scope.route, scope.key);
        if (row?.state === 'en_curso' && abandoned(row, now)) {
          // Its process died mid-request: the request never answered, so what it charged goes back.
          this.refundAbandoned(row, scope);
        } else if (row) {
          if (row.fingerprint !== fingerprint) throw apiError('idempotency_key_reused');
          if (row.state === 'en_curso') throw apiError('idempotency_in_flight');
          return {
            kind: 'replay',
            answer: {
              status: row.status!,
              headers: JSON.parse(row.headers!) as Record<string, string>,
              body: row.body!,
            },
          };
        }
        this.stmts.hold.run(
          scope.caller,
          scope.spaceId,
          scope.route,
          scope.key,
          fingerprint,
          now,
          PROCESS_OWNER,
          now + HOLD_LEASE_MS,
        );
        return { kind: 'run' };
      })
      .immediate();
    if (claim.kind === 'run') this.holding(scope, true);
    return claim;
  }

  /** Records what the held request was charged, refunded if its process dies before it answers. */
  charged(scope: IdempotencyScope, accountId: string, amount: number): void {
    this.stmts.charged.run(accountId, amount, scope.caller, scope.spaceId, scope.route, scope.key);
  }

  /** Stores the answer of a held key; retries within the TTL get it. */
  complete(scope: IdempotencyScope, answer: StoredAnswer): void {
    this.stmts.complete.run(
      answer.status,
      JSON.stringify(answer.headers),
      answer.body,
      scope.caller,
      scope.spaceId,
      scope.route,
      scope.key,
    );
    this.holding(scope, false);
  }

  /** Frees a held key whose request failed (and was refunded), so the client may retry it with the same key. */
  release(scope: IdempotencyScope): void {
    this.stmts.release.run(scope.caller, scope.spaceId, scope.route, scope.key);
    this.holding(scope, false);
  }

  /** Keeps this process's holds leased while it holds any. */
  private holding(scope: IdempotencyScope, held: boolean): void {
    const id = `${scope.caller}\u0000${scope.spaceId}\u0000${scope.route}\u0000${scope.key}`;
    if (held) this.held.add(id);
    else this.held.delete(id);
    if (this.held.size > 0 && !this.renewal) {
      this.renewal = setInterval(() => {
        try {
          this.stmts.renew.run(this.clock.now() + HOLD_LEASE_MS, PROCESS_OWNER);
        } catch {
          // A busy or closed database: the next tick tries again; a lease that runs out only allows a retry.
        }
      }, HOLD_LEASE_MS / 3);
      this.renewal.unref();
    } else if (this.held.size === 0 && this.renewal) {
      clearInterval(this.renewal);
      this.renewal = null;
    }
  }
}

/** A hold whose process died: its lease ran out, or its owner is another process that no longer exists. */
function abandoned(row: Row, now: number): boolean {
  return (row.lease_until ?? 0) <= now || (row.owner !== PROCESS_OWNER && ownerIsGone(row.owner));
}
