import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../kernel/tokens.js';
import type { SqliteDatabase } from '../storage/database.js';

/** A registered endpoint as stored. */
export interface WebhookRow {
  id: string;
  space_id: string;
  url: string;
  events: string;
  description: string;
  credit_threshold: number;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  active: number;
  disabled_at: string | null;
  disabled_reason: string | null;
  consecutive_failures: number;
  created_at: string;
  updated_at: string;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  body: string;
  state: 'pendiente' | 'entregada' | 'fallida';
  attempts: number;
  next_attempt_at: number | null;
  give_up_at: number;
  manual_requested: number;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface AttemptRow {
  delivery_id: string;
  n: number;
  at: string;
  status: number | null;
  error: string | null;
  ms: number;
  manual: number;
}

/** A delivery claimed for sending, with what signing and sending it needs. */
export interface ClaimedDelivery extends DeliveryRow {
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
}

export type EndpointChanges = Partial<
  Pick<WebhookRow, 'url' | 'events' | 'description' | 'credit_threshold' | 'active'>
> & { updated_at: string };

/** What one attempt changed: the delivery's new state and the endpoint's failure streak. */
export interface AttemptOutcome {
  attempt: Omit<AttemptRow, 'delivery_id' | 'n'>;
  state: DeliveryRow['state'];
  nextAttemptAt: number | null;
  finishedAt: string | null;
  succeeded: boolean;
}

/**
 * Storage of webhooks, their deliveries and attempts. An interface so the SQL can move behind the storage port
 * (issue #24) without touching the service or the dispatcher.
 */
export interface WebhookRepository {
  insertEndpoint(row: WebhookRow): void;
  listEndpoints(spaceId: string): WebhookRow[];
  countEndpoints(spaceId: string): number;
  endpoint(spaceId: string, id: string): WebhookRow | null;
  updateEndpoint(id: string, changes: EndpointChanges): void;
  /** Re-enables (or keeps enabled) an endpoint: clears the notice and the failure streak. */
  enable(id: string, at: string): void;
  disable(id: string, at: string, reason: string): void;
  deleteEndpoint(spaceId: string, id: string): boolean;
  rotateSecret(id: string, secret: string, previousUntil: number, at: string): void;
  /** Active endpoints of a space subscribed to an event type. */
  subscribers(spaceId: string, type: string): WebhookRow[];
  /** Active endpoints subscribed to an event type in every space billed to an account. */
  accountSubscribers(accountId: string, type: string): WebhookRow[];
  /** Whether a `creditos.agotados` delivery of the account was stored since its last top-up (or ever, without one). */
  exhaustionToldSinceTopUp(accountId: string): boolean;
  insertDeliveries(rows: readonly DeliveryRow[]): void;
  /** Takes up to `limit` due deliveries for `leaseMs`; another process skips them until the lease ends. */
  claimDue(now: number, leaseMs: number, limit: number): ClaimedDelivery[];
  /** Records an attempt and its outcome in one transaction; returns the endpoint's failure streak after it. */
  recordAttempt(delivery: ClaimedDelivery, outcome: AttemptOutcome): { failures: number };
  deliveries(
    webhookId: string,
    page: { limit: number; offset: number; state?: string },
  ): {
    total: number;
    rows: DeliveryRow[];
  };
  delivery(webhookId: string, id: string): DeliveryRow | null;
  attempts(deliveryIds: readonly string[]): AttemptRow[];
  /** Queues one attempt by hand now (also for a delivery already delivered or given up). */
  requestRedelivery(id: string, now: number): void;
  /** The earliest time a pending delivery is due, or null. */
  nextDue(): number | null;
  /** Deletes delivered and given-up deliveries (and their attempts) created before `before` (ISO); returns how many. */
  pruneFinished(before: string): number;
}

/** The SQLite implementation over the host's database (migration 0011_webhooks). */
@injectable()
export class SqliteWebhookRepository implements WebhookRepository {
  private readonly s;

  constructor(@inject(HostTokens.Database) private readonly db: SqliteDatabase) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO webhooks (id, space_id, url, events, description, credit_threshold, secret, active, created_at, updated_at)
         VALUES (@id, @space_id, @url, @events, @description, @credit_threshold, @secret, @active, @created_at, @updated_at)`,
      ),
      list: db.prepare<[string], WebhookRow>('SELECT * FROM webhooks WHERE space_id = ? ORDER BY created_at, id'),
      count: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM webhooks WHERE space_id = ?'),
      get: db.prepare<[string, string], WebhookRow>('SELECT * FROM webhooks WHERE space_id = ? AND id = ?'),
      enable: db.prepare(
        `UPDATE webhooks SET active = 1, disabled_at = NULL, disabled_reason = NULL, consecutive_failures = 0, updated_at = ?
         WHERE id = ?`,
      ),
      disable: db.prepare(
        'UPDATE webhooks SET active = 0, disabled_at = ?, disabled_reason = ?, updated_at = ? WHERE id = ?',
      ),
      delete: db.prepare('DELETE FROM webhooks WHERE space_id = ? AND id = ?'),
      rotate: db.prepare(
        `UPDATE webhooks SET previous_secret = secret, previous_secret_until = ?, secret = ?, updated_at = ? WHERE id = ?`,
      ),
      subscribers: db.prepare<[string, string], WebhookRow>(
        `SELECT w.* FROM webhooks w WHERE w.space_id = ? AND w.active = 1
         AND EXISTS (SELECT 1 FROM json_each(w.events) e WHERE e.value = ?)`,
      ),
      exhaustionTold: db
        .prepare<[string, string], number>(
          `SELECT EXISTS (SELECT 1 FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
             JOIN spaces s ON s.id = w.space_id
             WHERE s.account_id = ? AND d.event_type = 'creditos.agotados'
               AND d.created_at >= coalesce((SELECT max(created_at) FROM credit_movements
                 WHERE account_id = ? AND delta > 0 AND reason IN ('recarga', 'ajuste')), ''))`,
        )
        .pluck(),
      accountSubscribers: db.prepare<[string, string], WebhookRow>(
        `SELECT w.* FROM webhooks w JOIN spaces s ON s.id = w.space_id WHERE s.account_id = ? AND w.active = 1
         AND EXISTS (SELECT 1 FROM json_each(w.events) e WHERE e.value = ?)`,
      ),
      insertDelivery: db.prepare(
        `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, body, state, attempts, next_attempt_at,
         give_up_at, manual_requested, created_at) VALUES (@id, @webhook_id, @event_id, @event_type, @body, @state,
         @attempts, @next_attempt_at, @give_up_at, @manual_requested, @created_at)`,
      ),
      due: db.prepare<[number, number, number], ClaimedDelivery>(
        `SELECT d.*, w.url, w.secret, w.previous_secret, w.previous_secret_until FROM webhook_deliveries d
         JOIN webhooks w ON w.id = d.webhook_id
         WHERE d.state = 'pendiente' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until < ?)
         AND (w.active = 1 OR d.manual_requested = 1)
         ORDER BY d.next_attempt_at LIMIT ?`,
      ),
      lease: db.prepare(
        'UPDATE webhook_deliveries SET lease_until = ? WHERE id = ? AND (lease_until IS NULL OR lease_until < ?)',
      ),
      attempt: db.prepare(
        `INSERT INTO webhook_attempts (delivery_id, n, at, status, error, ms, manual)
         VALUES (?, (SELECT COALESCE(MAX(n), 0) + 1 FROM webhook_attempts WHERE delivery_id = ?), ?, ?, ?, ?, ?)`,
      ),
      settle: db.prepare(
        `UPDATE webhook_deliveries SET state = ?, attempts = attempts + 1, next_attempt_at = ?, lease_until = NULL,
         manual_requested = 0, last_status = ?, last_error = ?, finished_at = ? WHERE id = ?`,
      ),
      succeeded: db.prepare<[string], { consecutive_failures: number }>(
        'UPDATE webhooks SET consecutive_failures = 0 WHERE id = ? RETURNING consecutive_failures',
      ),
      failed: db.prepare<[string], { consecutive_failures: number }>(
        'UPDATE webhooks SET consecutive_failures = consecutive_failures + 1 WHERE id = ? RETURNING consecutive_failures',
      ),
      deliveries: db.prepare<[string, string | null, string | null, number, number], DeliveryRow>(
        `SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND (? IS NULL OR state = ?)
         ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      ),
      countDeliveries: db.prepare<[string, string | null, string | null], { n: number }>(
        'SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ? AND (? IS NULL OR state = ?)',
      ),
      delivery: db.prepare<[string, string], DeliveryRow>(
        'SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND id = ?',
      ),
      redeliver: db.prepare(
        // The lease is kept: an attempt in flight finishes first, so the same delivery is never sent twice at once.
        `UPDATE webhook_deliveries SET state = 'pendiente', next_attempt_at = ?, manual_requested = 1,
         finished_at = NULL WHERE id = ?`,
      ),
      prune: db.prepare("DELETE FROM webhook_deliveries WHERE state IN ('entregada', 'fallida') AND created_at < ?"),
      nextDue: db.prepare<[], { at: number | null }>(
        `SELECT MIN(d.next_attempt_at) AS at FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
         WHERE d.state = 'pendiente' AND (w.active = 1 OR d.manual_requested = 1)`,
      ),
    };
  }

  insertEndpoint(row: WebhookRow): void {
    this.s.insert.run(row);
  }
  listEndpoints(spaceId: string): WebhookRow[] {
    return this.s.list.all(spaceId);
  }
  countEndpoints(spaceId: string): number {
    return this.s.count.get(spaceId)!.n;
  }
  endpoint(spaceId: string, id: string): WebhookRow | null {
    return this.s.get.get(spaceId, id) ?? null;
  }
  updateEndpoint(id: string, changes: EndpointChanges): void {
    const columns = Object.keys(changes);
    // Column names come from the EndpointChanges type, never from a request.
    this.db
      .prepare(`UPDATE webhooks SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`)
      .run({ ...changes, id });
  }
  enable(id: string, at: string): void {
    this.s.enable.run(at, id);
  }
  disable(id: string, at: string, reason: string): void {
    this.s.disable.run(at, reason, at, id);
  }
  deleteEndpoint(spaceId: string, id: string): boolean {
    return this.s.delete.run(spaceId, id).changes > 0;
  }
  rotateSecret(id: string, secret: string, previousUntil: number, at: string): void {
    this.s.rotate.run(previousUntil, secret, at, id);
  }
  subscribers(spaceId: string, type: string): WebhookRow[] {
    return this.s.subscribers.all(spaceId, type);
  }
  accountSubscribers(accountId: string, type: string): WebhookRow[] {
    return this.s.accountSubscribers.all(accountId, type);
  }
  exhaustionToldSinceTopUp(accountId: string): boolean {
    return this.s.exhaustionTold.get(accountId, accountId) === 1;
  }
  insertDeliveries(rows: readonly DeliveryRow[]): void {
    this.db.transaction(() => {
      for (const row of rows) this.s.insertDelivery.run(row);
    })();
  }
  claimDue(now: number, leaseMs: number, limit: number): ClaimedDelivery[] {
    return this.db.transaction(() =>
      this.s.due.all(now, now, limit).filter((d) => this.s.lease.run(now + leaseMs, d.id, now).changes === 1),
    )();
  }
  recordAttempt(delivery: ClaimedDelivery, o: AttemptOutcome): { failures: number } {
    return this.db.transaction(() => {
      const a = o.attempt;
      this.s.attempt.run(delivery.id, delivery.id, a.at, a.status, a.error, a.ms, a.manual);
      this.s.settle.run(o.state, o.nextAttemptAt, a.status, a.error, o.finishedAt, delivery.id);
      const streak = (o.succeeded ? this.s.succeeded : this.s.failed).get(delivery.webhook_id);
      return { failures: streak?.consecutive_failures ?? 0 };
    })();
  }
  deliveries(webhookId: string, page: { limit: number; offset: number; state?: string }) {
    const state = page.state ?? null;
    return {
      total: this.s.countDeliveries.get(webhookId, state, state)!.n,
      rows: this.s.deliveries.all(webhookId, state, state, page.limit, page.offset),
    };
  }
  delivery(webhookId: string, id: string): DeliveryRow | null {
    return this.s.delivery.get(webhookId, id) ?? null;
  }
  attempts(deliveryIds: readonly string[]): AttemptRow[] {
    if (deliveryIds.length === 0) return [];
    return this.db
      .prepare<string[], AttemptRow>(
        `SELECT * FROM webhook_attempts WHERE delivery_id IN (${deliveryIds.map(() => '?').join(',')}) ORDER BY n`,
      )
      .all(...deliveryIds);
  }
  requestRedelivery(id: string, now: number): void {
    this.s.redeliver.run(now, id);
  }
  nextDue(): number | null {
    return this.s.nextDue.get()?.at ?? null;
  }
  pruneFinished(before: string): number {
    return this.s.prune.run(before).changes;
  }
}
