// Idempotency keys on PostgreSQL: storage/sqlite/idempotency-repository.ts's decisions, where SQLite's immediate
// transaction (one writer at a time) becomes, per key, a transaction-scoped advisory lock (two claims of one key take
// turns, also when no row exists yet to lock) and row locks (a claim and a start-up's freeing never both refund a hold).
import { inject, injectable } from 'tsyringe';
import type { IdempotencyScope, StoredAnswer } from '../../idempotency/idempotency-services.js';
import type {
  AbandonedHolds,
  ClaimRequest,
  ClaimResult,
  IdempotencyRepository,
} from '../port/idempotency-repository.js';
import { inTransaction, type Pool } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

interface Row {
  caller: string;
  space_id: string;
  route: string;
  idempotency_key: string;
  fingerprint: string;
  state: 'en_curso' | 'hecha';
  owner: string | null;
  lease_until: number | null;
  charged_account: string | null;
  charged_amount: number | null;
  status: number | null;
  headers: string | null;
  body: Buffer | null;
}

const WHERE = 'caller = $1 AND space_id = $2 AND route = $3 AND idempotency_key = $4';
const params = (s: IdempotencyScope): unknown[] => [s.caller, s.spaceId, s.route, s.key];
const hold = (row: Row) => ({ owner: row.owner, leaseUntil: row.lease_until });
const scopeOf = (row: Row): IdempotencyScope => ({
  caller: row.caller,
  spaceId: row.space_id,
  route: row.route,
  key: row.idempotency_key,
});

@injectable()
export class PgIdempotencyRepository implements IdempotencyRepository {
  constructor(@inject(PgPoolToken) private readonly pool: Pool) {}

  claim(request: ClaimRequest, holds: AbandonedHolds): Promise<ClaimResult> {
    const { scope, fingerprint, now } = request;
    return inTransaction(this.pool, async (client): Promise<ClaimResult> => {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        JSON.stringify(['idempotencia', scope.caller, scope.spaceId, scope.route, scope.key]),
      ]);
      // Rows another claim is purging are left to it: two purges never wait on (or deadlock over) each other's rows.
      await client.query(
        `DELETE FROM idempotency_keys WHERE (caller, space_id, route, idempotency_key) IN
           (SELECT caller, space_id, route, idempotency_key FROM idempotency_keys WHERE created_at <= $1
              FOR UPDATE SKIP LOCKED)`,
        [request.purgeBefore],
      );
      const row = (await client.query<Row>(`SELECT * FROM idempotency_keys WHERE ${WHERE} FOR UPDATE`, params(scope)))
        .rows[0];
      if (row?.state === 'en_curso' && holds.abandoned(hold(row))) {
        // Its process died mid-request: the request never answered, so what it charged goes back, in this transaction.
        await this.refund(row, holds);
      } else if (row) {
        if (row.fingerprint !== fingerprint) return { kind: 'reused' };
        if (row.state === 'en_curso') return { kind: 'in_flight' };
        const answer: StoredAnswer = {
          status: row.status!,
          headers: JSON.parse(row.headers!) as Record<string, string>,
          body: row.body!.toString('utf8'),
        };
        return { kind: 'replay', answer };
      }
      // A new hold replaces the whole row (SQLite's INSERT OR REPLACE): nothing charged, no stored answer.
      await client.query(
        `INSERT INTO idempotency_keys (caller, space_id, route, idempotency_key, fingerprint, state, created_at, owner,
           lease_until) VALUES ($1, $2, $3, $4, $5, 'en_curso', $6, $7, $8)
         ON CONFLICT (caller, space_id, route, idempotency_key) DO UPDATE SET fingerprint = excluded.fingerprint,
           state = 'en_curso', created_at = excluded.created_at, owner = excluded.owner,
           lease_until = excluded.lease_until, status = NULL, headers = NULL, body = NULL, charged_account = NULL,
           charged_amount = NULL`,
        [...params(scope), fingerprint, now, request.owner, request.leaseUntil],
      );
      return { kind: 'run' };
    });
  }

  freeAbandoned(exceptOwner: string, holds: AbandonedHolds): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      // Holds a claim is deciding right now are skipped: that claim takes them over (or not) itself.
      const held = await client.query<Row>(
        `SELECT * FROM idempotency_keys WHERE state = 'en_curso' AND owner IS DISTINCT FROM $1 FOR UPDATE SKIP LOCKED`,
        [exceptOwner],
      );
      const rows = held.rows.filter((row) => holds.abandoned(hold(row)));
      for (const row of rows) {
        await this.refund(row, holds);
        await client.query(`DELETE FROM idempotency_keys WHERE ${WHERE} AND state = 'en_curso'`, params(scopeOf(row)));
      }
      return rows.length;
    });
  }

  /**
   * Called inside this repository's transaction: a PostgreSQL ledger writing the refund through `inTransaction` or
   * `pgQuery` on the same pool joins it, so the refund and the freeing commit together (exactly once).
   */
  private async refund(row: Row, holds: AbandonedHolds): Promise<void> {
    if (row.charged_account && row.charged_amount)
      await holds.refund({
        accountId: row.charged_account,
        amount: row.charged_amount,
        spaceId: row.space_id,
        route: row.route,
      });
  }

  async complete(scope: IdempotencyScope, answer: StoredAnswer): Promise<void> {
    // The body is stored as bytes (BYTEA), as SQLite's BLOB column holds it.
    await this.pool.query(
      `UPDATE idempotency_keys SET state = 'hecha', status = $5, headers = $6, body = $7 WHERE ${WHERE}`,
      [...params(scope), answer.status, JSON.stringify(answer.headers), Buffer.from(answer.body, 'utf8')],
    );
  }

  async release(scope: IdempotencyScope): Promise<void> {
    await this.pool.query(`DELETE FROM idempotency_keys WHERE ${WHERE} AND state = 'en_curso'`, params(scope));
  }

  async renew(owner: string, leaseUntil: number): Promise<void> {
    await this.pool.query("UPDATE idempotency_keys SET lease_until = $1 WHERE owner = $2 AND state = 'en_curso'", [
      leaseUntil,
      owner,
    ]);
  }
}
