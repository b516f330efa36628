// The credit ledger on PostgreSQL: the SQLite repository's statements (storage/sqlite/credit-ledger-repository.ts),
// each change of a balance one transaction with its movement. A debit is one conditional UPDATE: under concurrent
// debits the row lock makes each re-check the balance it would leave, so none overdraws.
import type {
  CreditLedgerRepository,
  MovementEntry,
  MovementRecord,
  RequestRefund,
} from '../port/credit-ledger-repository.js';
import type { IdempotencyScope } from '../../idempotency/idempotency-services.js';
import { owedRefund, type RequestMovement } from '../port/request-refund.js';
import { inTransaction, pgQuery, type Pool, type PoolClient } from './pg-driver.js';

type Queryable = Pool | PoolClient;

interface MovementRow {
  id: number;
  delta: number;
  balance_after: number;
  reason: string;
  space_id: string | null;
  route: string | null;
  created_at: string;
}

async function move(
  db: Queryable,
  accountId: string,
  delta: number,
  balance: number,
  e: MovementEntry,
): Promise<number> {
  await db.query(
    `INSERT INTO credit_movements (account_id, delta, balance_after, reason, space_id, route, request_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [accountId, delta, balance, e.reason, e.spaceId, e.route, e.requestId, e.at],
  );
  return balance;
}

const HOLD = 'caller = $1 AND space_id = $2 AND route = $3 AND idempotency_key = $4';
const holdParams = (h: IdempotencyScope) => [h.caller, h.spaceId, h.route, h.key];

/**
 * Locks the `Idempotency-Key` hold a movement pays or refunds (MovementEntry.hold) before the account's row is
 * touched: a claim taking a dead host's hold over locks the hold, then credits the account, so every transaction
 * that touches both takes them in that order and none waits on another in a cycle.
 */
async function lockHold(db: Queryable, hold: IdempotencyScope | null | undefined): Promise<void> {
  if (hold) await db.query(`SELECT 1 FROM idempotency_keys WHERE ${HOLD} FOR UPDATE`, holdParams(hold));
}

/** Writes on the hold what its request paid (a debit) or, with null, that nothing is owed any more (its refund). */
async function markHold(
  db: Queryable,
  hold: IdempotencyScope | null | undefined,
  charge: { accountId: string; amount: number } | null,
): Promise<void> {
  if (hold)
    await db.query(
      `UPDATE idempotency_keys SET charged_account = $5, charged_amount = $6 WHERE ${HOLD} AND state = 'en_curso'`,
      [...holdParams(hold), charge?.accountId ?? null, charge?.amount ?? null],
    );
}

async function credit(db: Queryable, accountId: string, amount: number, e: MovementEntry): Promise<number | null> {
  await lockHold(db, e.hold);
  const r = await db.query<{ credits: number }>(
    'UPDATE accounts SET credits = credits + $1 WHERE id = $2 RETURNING credits',
    [amount, accountId],
  );
  if (!r.rows[0]) return null;
  await markHold(db, e.hold, null);
  return move(db, accountId, amount, r.rows[0].credits, e);
}

export class PgCreditLedgerRepository implements CreditLedgerRepository {
  constructor(private readonly pool: Pool) {}

  async debit(accountId: string, amount: number, entry: MovementEntry): Promise<number | null> {
    return inTransaction(this.pool, async (client) => {
      await lockHold(client, entry.hold);
      const r = await client.query<{ credits: number }>(
        'UPDATE accounts SET credits = credits - $1 WHERE id = $2 AND credits >= $1 RETURNING credits',
        [amount, accountId],
      );
      if (!r.rows[0]) return null;
      await markHold(client, entry.hold, { accountId, amount });
      return move(client, accountId, -amount, r.rows[0].credits, entry);
    });
  }

  async credit(accountId: string, amount: number, entry: MovementEntry): Promise<number | null> {
    return inTransaction(this.pool, (client) => credit(client, accountId, amount, entry));
  }

  async refundRequest(
    accountId: string,
    requestId: string,
    routeFragment: string,
    entry: { spaceId: string | null; at: string },
  ): Promise<RequestRefund> {
    return inTransaction(this.pool, async (client) => {
      // The account's row lock first: another host's refund of the same request waits here, then sees this one's.
      const account = await client.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
      if (!account.rowCount) return { refunded: 0, balance: null };
      const rows = (
        await client.query<RequestMovement>(
          'SELECT delta, reason, route FROM credit_movements WHERE account_id = $1 AND request_id = $2 ORDER BY id',
          [accountId, requestId],
        )
      ).rows;
      const { owed, route } = owedRefund(rows, routeFragment);
      if (owed <= 0) return { refunded: 0, balance: null };
      const balance = await credit(client, accountId, owed, {
        reason: 'reembolso',
        spaceId: entry.spaceId,
        route,
        requestId,
        at: entry.at,
      });
      return { refunded: balance === null ? 0 : owed, balance };
    });
  }

  async balance(accountId: string): Promise<number | null> {
    const r = await pgQuery<{ credits: number }>(this.pool, 'SELECT credits FROM accounts WHERE id = $1', [accountId]);
    return r.rows[0]?.credits ?? null;
  }

  async recent(accountId: string, limit: number, beforeId = Number.MAX_SAFE_INTEGER): Promise<MovementRecord[]> {
    const r = await pgQuery<MovementRow>(
      this.pool,
      `SELECT id, delta, balance_after, reason, space_id, route, created_at FROM credit_movements
       WHERE account_id = $1 AND id < $3 ORDER BY id DESC LIMIT $2`,
      [accountId, limit, beforeId],
    );
    return r.rows.map((m) => ({
      id: m.id,
      delta: m.delta,
      balanceAfter: m.balance_after,
      reason: m.reason,
      spaceId: m.space_id,
      route: m.route,
      createdAt: m.created_at,
    }));
  }
}
