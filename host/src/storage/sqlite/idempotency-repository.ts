import { inject, injectable } from 'tsyringe';
import type { IdempotencyScope, StoredAnswer } from '../../idempotency/idempotency-services.js';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type {
  AbandonedHolds,
  ClaimRequest,
  ClaimResult,
  IdempotencyRepository,
} from '../port/idempotency-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

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

type ScopeParams = [string, string, string, string];
const params = (s: IdempotencyScope): ScopeParams => [s.caller, s.spaceId, s.route, s.key];
const hold = (row: Row) => ({ owner: row.owner, leaseUntil: row.lease_until });

/** Idempotency keys in the `idempotency_keys` table; claims are immediate transactions (the write lock first). */
@injectable()
export class SqliteIdempotencyRepository implements IdempotencyRepository {
  private readonly stmts;

  constructor(@inject(HostTokens.Database) private readonly db: SqliteDatabase) {
    const where = 'caller = ? AND space_id = ? AND route = ? AND idempotency_key = ?';
    this.stmts = preparedOnUse({
      purge: () => db.prepare<[number]>('DELETE FROM idempotency_keys WHERE created_at <= ?'),
      find: () =>
        db.prepare<ScopeParams, Row>(
          `SELECT fingerprint, state, status, headers, body, owner, lease_until, charged_account, charged_amount
           FROM idempotency_keys WHERE ${where}`,
        ),
      hold: () =>
        db.prepare(
          `INSERT OR REPLACE INTO idempotency_keys (caller, space_id, route, idempotency_key, fingerprint, state, created_at,
           owner, lease_until) VALUES (?, ?, ?, ?, ?, 'en_curso', ?, ?, ?)`,
        ),
      held: () =>
        db.prepare<[string], Row & { space_id: string; route: string; caller: string; idempotency_key: string }>(
          "SELECT * FROM idempotency_keys WHERE state = 'en_curso' AND owner IS NOT ?",
        ),
      renew: () =>
        db.prepare<[number, string]>(
          "UPDATE idempotency_keys SET lease_until = ? WHERE owner = ? AND state = 'en_curso'",
        ),
      complete: () =>
        db.prepare(`UPDATE idempotency_keys SET state = 'hecha', status = ?, headers = ?, body = ? WHERE ${where}`),
      release: () => db.prepare<ScopeParams>(`DELETE FROM idempotency_keys WHERE ${where} AND state = 'en_curso'`),
    });
  }

  async claim(request: ClaimRequest, holds: AbandonedHolds): Promise<ClaimResult> {
    const { scope, fingerprint, now } = request;
    return this.db
      .transaction((): ClaimResult => {
        this.stmts.purge.run(request.purgeBefore);
        const row = this.stmts.find.get(...params(scope));
        if (row?.state === 'en_curso' && holds.abandoned(hold(row))) {
          // Its process died mid-request: the request never answered, so what it charged goes back.
          this.refund(row, scope, holds);
        } else if (row) {
          if (row.fingerprint !== fingerprint) return { kind: 'reused' };
          if (row.state === 'en_curso') return { kind: 'in_flight' };
          const answer: StoredAnswer = {
            status: row.status!,
            headers: JSON.parse(row.headers!) as Record<string, string>,
            body: row.body!,
          };
          return { kind: 'replay', answer };
        }
        this.stmts.hold.run(...params(scope), fingerprint, now, request.owner, request.leaseUntil);
        return { kind: 'run' };
      })
      .immediate();
  }

  async freeAbandoned(exceptOwner: string, holds: AbandonedHolds): Promise<number> {
    return this.db
      .transaction(() => {
        const rows = this.stmts.held.all(exceptOwner).filter((row) => holds.abandoned(hold(row)));
        for (const row of rows) {
          const scope = { caller: row.caller, spaceId: row.space_id, route: row.route, key: row.idempotency_key };
          this.refund(row, scope, holds);
          this.stmts.release.run(...params(scope));
        }
        return rows.length;
      })
      .immediate();
  }

  private refund(row: Row, scope: IdempotencyScope, holds: AbandonedHolds): void {
    if (row.charged_account && row.charged_amount)
      holds.refund({
        accountId: row.charged_account,
        amount: row.charged_amount,
        spaceId: scope.spaceId,
        route: scope.route,
      });
  }

  async complete(scope: IdempotencyScope, answer: StoredAnswer): Promise<void> {
    this.stmts.complete.run(answer.status, JSON.stringify(answer.headers), answer.body, ...params(scope));
  }

  async release(scope: IdempotencyScope): Promise<void> {
    this.stmts.release.run(...params(scope));
  }

  async renew(owner: string, leaseUntil: number): Promise<void> {
    this.stmts.renew.run(leaseUntil, owner);
  }
}
