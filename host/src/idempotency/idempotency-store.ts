import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import { HostTokens } from '../kernel/tokens.js';
import type { SqliteDatabase } from '../storage/database.js';
import type { IdempotencyClaim, IdempotencyScope, IdempotencyStore, StoredAnswer } from './idempotency-services.js';

/** How long a stored answer is replayed (the draft's suggested minimum is 24 h). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

interface Row {
  fingerprint: string;
  state: 'en_curso' | 'hecha';
  status: number | null;
  headers: string | null;
  body: string | null;
}

/**
 * The stored answers of requests sent with an `Idempotency-Key`. Claiming a key is one synchronous statement
 * sequence on the single SQLite connection, so two requests with the same key can never both run.
 */
@injectable()
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly stmts;

  constructor(
    @inject(HostTokens.Database) private readonly db: SqliteDatabase,
    @inject(HostTokens.Clock) private readonly clock: Clock,
  ) {
    const where = 'caller = ? AND space_id = ? AND route = ? AND idempotency_key = ?';
    this.stmts = {
      purge: db.prepare<[number]>('DELETE FROM idempotency_keys WHERE created_at <= ?'),
      find: db.prepare<[string, string, string, string], Row>(
        `SELECT fingerprint, state, status, headers, body FROM idempotency_keys WHERE ${where}`,
      ),
      hold: db.prepare(
        "INSERT INTO idempotency_keys (caller, space_id, route, idempotency_key, fingerprint, state, created_at) VALUES (?, ?, ?, ?, ?, 'en_curso', ?)",
      ),
      complete: db.prepare(
        `UPDATE idempotency_keys SET state = 'hecha', status = ?, headers = ?, body = ? WHERE ${where}`,
      ),
      release: db.prepare(`DELETE FROM idempotency_keys WHERE ${where} AND state = 'en_curso'`),
      abandoned: db.prepare("DELETE FROM idempotency_keys WHERE state = 'en_curso'"),
    };
    // A key held when the process stopped belongs to a request that will never answer: free it, or its retries
    // would get 409 for a whole day.
    this.stmts.abandoned.run();
  }

  /**
   * Holds `scope` for a new request, or returns the answer stored for the same body. Expired answers are purged
   * first, so a key older than the TTL runs (and pays) again.
   * @throws 422 `idempotency_key_reused` for another body, 409 `idempotency_in_flight` while the first one runs.
   */
  claim(scope: IdempotencyScope, fingerprint: string): IdempotencyClaim {
    const now = this.clock.now();
    return this.db.transaction((): IdempotencyClaim => {
      this.stmts.purge.run(now - IDEMPOTENCY_TTL_MS);
      const row = this.stmts.find.get(scope.caller, scope.spaceId, scope.route, scope.key);
      if (!row) {
        this.stmts.hold.run(scope.caller, scope.spaceId, scope.route, scope.key, fingerprint, now);
        return { kind: 'run' };
      }
      if (row.fingerprint !== fingerprint) throw apiError('idempotency_key_reused');
      if (row.state === 'en_curso') throw apiError('idempotency_in_flight');
      return {
        kind: 'replay',
        answer: { status: row.status!, headers: JSON.parse(row.headers!) as Record<string, string>, body: row.body! },
      };
    })();
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
  }

  /** Frees a held key whose request failed (and was refunded), so the client may retry it with the same key. */
  release(scope: IdempotencyScope): void {
    this.stmts.release.run(scope.caller, scope.spaceId, scope.route, scope.key);
  }
}
