// Webhooks on PostgreSQL: storage/sqlite/webhook-repository.ts's statements. A due delivery is leased with
// FOR UPDATE SKIP LOCKED, so hosts claiming at once never take the same one; an attempt, its delivery's new state
// and the endpoint's failure streak are one transaction.
import type {
  AttemptOutcome,
  AttemptRow,
  ClaimedDelivery,
  DeliveryRow,
  EndpointChanges,
  WebhookRepository,
  WebhookRow,
} from '../port/webhook-repository.js';
import { DUE_ORDER, dueBy, NEXT_DUE, redeliverSet } from '../shared/webhook-due.js';
import { inTransaction, type Pool, type PoolClient } from './pg-driver.js';

type Queryable = Pool | PoolClient;

/** The endpoint's events are a JSON array of event types; this is "the array holds the type $2". */
const SUBSCRIBED = 'w.events::jsonb @> jsonb_build_array($2::text)';

const ENDPOINT_COLUMNS = ['url', 'events', 'description', 'credit_threshold', 'active', 'updated_at'] as const;

export class PgWebhookRepository implements WebhookRepository {
  constructor(private readonly pool: Pool) {}

  async insertEndpoint(row: WebhookRow): Promise<void> {
    await this.pool.query(
      `INSERT INTO webhooks (id, space_id, url, events, description, credit_threshold, secret, active, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        row.id,
        row.space_id,
        row.url,
        row.events,
        row.description,
        row.credit_threshold,
        row.secret,
        row.active,
        row.created_at,
        row.updated_at,
      ],
    );
  }

  async listEndpoints(spaceId: string): Promise<WebhookRow[]> {
    return (
      await this.pool.query<WebhookRow>('SELECT * FROM webhooks WHERE space_id = $1 ORDER BY created_at, id', [spaceId])
    ).rows;
  }

  async countEndpoints(spaceId: string): Promise<number> {
    const r = await this.pool.query<{ n: number }>('SELECT count(*) AS n FROM webhooks WHERE space_id = $1', [spaceId]);
    return r.rows[0]!.n;
  }

  async endpoint(spaceId: string, id: string): Promise<WebhookRow | null> {
    const r = await this.pool.query<WebhookRow>('SELECT * FROM webhooks WHERE space_id = $1 AND id = $2', [
      spaceId,
      id,
    ]);
    return r.rows[0] ?? null;
  }

  async updateEndpoint(id: string, changes: EndpointChanges): Promise<void> {
    // Column names come from a fixed list, never from a request.
    const columns = ENDPOINT_COLUMNS.filter((c) => changes[c] !== undefined);
    await this.pool.query(`UPDATE webhooks SET ${columns.map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE id = $1`, [
      id,
      ...columns.map((c) => changes[c]),
    ]);
  }

  async enable(id: string, at: string): Promise<void> {
    await this.pool.query(
      `UPDATE webhooks SET active = 1, disabled_at = NULL, disabled_reason = NULL, consecutive_failures = 0,
       updated_at = $1 WHERE id = $2`,
      [at, id],
    );
  }

  async disable(id: string, at: string, reason: string): Promise<void> {
    await this.pool.query(
      'UPDATE webhooks SET active = 0, disabled_at = $1, disabled_reason = $2, updated_at = $1 WHERE id = $3',
      [at, reason, id],
    );
  }

  async deleteEndpoint(spaceId: string, id: string): Promise<boolean> {
    const r = await this.pool.query('DELETE FROM webhooks WHERE space_id = $1 AND id = $2', [spaceId, id]);
    return (r.rowCount ?? 0) > 0;
  }

  async rotateSecret(id: string, secret: string, previousUntil: number, at: string): Promise<void> {
    await this.pool.query(
      `UPDATE webhooks SET previous_secret = secret, previous_secret_until = $1, secret = $2, updated_at = $3
       WHERE id = $4`,
      [previousUntil, secret, at, id],
    );
  }

  async subscribers(spaceId: string, type: string): Promise<WebhookRow[]> {
    return (
      await this.pool.query<WebhookRow>(
        `SELECT w.* FROM webhooks w WHERE w.space_id = $1 AND w.active = 1 AND ${SUBSCRIBED}`,
        [spaceId, type],
      )
    ).rows;
  }

  async accountSubscribers(accountId: string, type: string): Promise<WebhookRow[]> {
    return (
      await this.pool.query<WebhookRow>(
        `SELECT w.* FROM webhooks w JOIN spaces s ON s.id = w.space_id
         WHERE s.account_id = $1 AND w.active = 1 AND ${SUBSCRIBED}`,
        [accountId, type],
      )
    ).rows;
  }

  exhaustionToldSinceTopUp(accountId: string): Promise<boolean> {
    return exhaustionTold(this.pool, accountId);
  }

  async insertExhaustionNotice(accountId: string, rows: readonly DeliveryRow[]): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      // The account's decisions take turns across hosts (released at commit); READ COMMITTED, so the check that
      // follows sees what the previous holder stored.
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`creditos.agotados:${accountId}`]);
      if (await exhaustionTold(client, accountId)) return false;
      await insertDeliveryRows(client, rows);
      return true;
    });
  }

  async insertDeliveries(rows: readonly DeliveryRow[]): Promise<void> {
    if (rows.length === 0) return;
    await inTransaction(this.pool, (client) => insertDeliveryRows(client, rows));
  }

  async claimDue(now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
    const r = await this.pool.query<ClaimedDelivery>(
      `WITH due AS (
         SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
         WHERE ${dueBy('$1')} ORDER BY ${DUE_ORDER} LIMIT $3
         FOR UPDATE OF d SKIP LOCKED
       ), leased AS (
         UPDATE webhook_deliveries d SET lease_until = $2 FROM due WHERE d.id = due.id RETURNING d.*
       )
       SELECT l.*, w.url, w.secret, w.previous_secret, w.previous_secret_until
       FROM leased l JOIN webhooks w ON w.id = l.webhook_id ORDER BY l.next_attempt_at`,
      [now, now + leaseMs, limit],
    );
    return r.rows;
  }

  async recordAttempt(delivery: ClaimedDelivery, o: AttemptOutcome): Promise<{ failures: number }> {
    return inTransaction(this.pool, async (client) => {
      const a = o.attempt;
      // The delivery's row lock first: numbering its attempts (max + 1) is then never raced.
      await client.query(
        `UPDATE webhook_deliveries SET state = $1, attempts = attempts + 1, next_attempt_at = $2, lease_until = NULL,
         manual_requested = 0, last_status = $3, last_error = $4, finished_at = $5 WHERE id = $6`,
        [o.state, o.nextAttemptAt, a.status, a.error, o.finishedAt, delivery.id],
      );
      await client.query(
        `INSERT INTO webhook_attempts (delivery_id, n, at, status, error, ms, manual)
         VALUES ($1, (SELECT coalesce(max(n), 0) + 1 FROM webhook_attempts WHERE delivery_id = $1), $2, $3, $4, $5, $6)`,
        [delivery.id, a.at, a.status, a.error, a.ms, a.manual],
      );
      const streak = await client.query<{ consecutive_failures: number }>(
        o.succeeded
          ? 'UPDATE webhooks SET consecutive_failures = 0 WHERE id = $1 RETURNING consecutive_failures'
          : 'UPDATE webhooks SET consecutive_failures = consecutive_failures + 1 WHERE id = $1 RETURNING consecutive_failures',
        [delivery.webhook_id],
      );
      return { failures: streak.rows[0]?.consecutive_failures ?? 0 };
    });
  }

  async deliveries(webhookId: string, page: { limit: number; offset: number; state?: string }) {
    const state = page.state ?? null;
    const where = 'webhook_id = $1 AND ($2::text IS NULL OR state = $2)';
    const [count, rows] = await Promise.all([
      this.pool.query<{ n: number }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE ${where}`, [webhookId, state]),
      this.pool.query<DeliveryRow>(
        `SELECT * FROM webhook_deliveries WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
        [webhookId, state, page.limit, page.offset],
      ),
    ]);
    return { total: count.rows[0]!.n, rows: rows.rows };
  }

  async delivery(webhookId: string, id: string): Promise<DeliveryRow | null> {
    const r = await this.pool.query<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE webhook_id = $1 AND id = $2', [
      webhookId,
      id,
    ]);
    return r.rows[0] ?? null;
  }

  async attempts(deliveryIds: readonly string[]): Promise<AttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    return (
      await this.pool.query<AttemptRow>('SELECT * FROM webhook_attempts WHERE delivery_id = ANY($1) ORDER BY n', [
        deliveryIds,
      ])
    ).rows;
  }

  async requestRedelivery(id: string, now: number): Promise<void> {
    await this.pool.query(`UPDATE webhook_deliveries SET ${redeliverSet('$1')} WHERE id = $2`, [now, id]);
  }

  async nextDue(): Promise<number | null> {
    const r = await this.pool.query<{ at: number | null }>(NEXT_DUE);
    return r.rows[0]?.at ?? null;
  }

  async pruneFinished(before: string): Promise<number> {
    const r = await this.pool.query(
      "DELETE FROM webhook_deliveries WHERE state IN ('entregada', 'fallida') AND created_at < $1",
      [before],
    );
    return r.rowCount ?? 0;
  }
}

/** Whether a `creditos.agotados` was stored for the account since its last top-up (`recarga` or positive `ajuste`). */
async function exhaustionTold(db: Queryable, accountId: string): Promise<boolean> {
  const r = await db.query<{ told: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       JOIN spaces s ON s.id = w.space_id
       WHERE s.account_id = $1 AND d.event_type = 'creditos.agotados'
         AND d.created_at >= coalesce((SELECT max(created_at) FROM credit_movements
           WHERE account_id = $1 AND delta > 0 AND reason IN ('recarga', 'ajuste')), '')) AS told`,
    [accountId],
  );
  return r.rows[0]!.told;
}

async function insertDeliveryRows(db: Queryable, rows: readonly DeliveryRow[]): Promise<void> {
  for (const d of rows) {
    await db.query(
      `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, body, state, attempts, next_attempt_at,
       give_up_at, manual_requested, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        d.id,
        d.webhook_id,
        d.event_id,
        d.event_type,
        d.body,
        d.state,
        d.attempts,
        d.next_attempt_at,
        d.give_up_at,
        d.manual_requested,
        d.created_at,
      ],
    );
  }
}
