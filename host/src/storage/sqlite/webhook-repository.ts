import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
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
import { preparedOnUse } from './prepared-on-use.js';

/** The SQLite implementation over the host's database (migration 0011_webhooks). */
@injectable()
export class SqliteWebhookRepository implements WebhookRepository {
  private readonly s;

  constructor(@inject(HostTokens.Database) private readonly db: SqliteDatabase) {
    this.s = preparedOnUse({
      insert: () =>
        db.prepare(
          `INSERT INTO webhooks (id, space_id, url, events, description, credit_threshold, secret, active, created_at, updated_at)
         VALUES (@id, @space_id, @url, @events, @description, @credit_threshold, @secret, @active, @created_at, @updated_at)`,
        ),
      list: () => db.prepare<[string], WebhookRow>('SELECT * FROM webhooks WHERE space_id = ? ORDER BY created_at, id'),
      count: () => db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM webhooks WHERE space_id = ?'),
      get: () => db.prepare<[string, string], WebhookRow>('SELECT * FROM webhooks WHERE space_id = ? AND id = ?'),
      enable: () =>
        db.prepare(
          `UPDATE webhooks SET active = 1, disabled_at = NULL, disabled_reason = NULL, consecutive_failures = 0, updated_at = ?
         WHERE id = ?`,
        ),
      disable: () =>
        db.prepare('UPDATE webhooks SET active = 0, disabled_at = ?, disabled_reason = ?, updated_at = ? WHERE id = ?'),
      delete: () => db.prepare('DELETE FROM webhooks WHERE space_id = ? AND id = ?'),
      rotate: () =>
        db.prepare(
          `UPDATE webhooks SET previous_secret = secret, previous_secret_until = ?, secret = ?, updated_at = ? WHERE id = ?`,
        ),
      subscribers: () =>
        db.prepare<[string, string], WebhookRow>(
          `SELECT w.* FROM webhooks w WHERE w.space_id = ? AND w.active = 1
         AND EXISTS (SELECT 1 FROM json_each(w.events) e WHERE e.value = ?)`,
        ),
      exhaustionTold: () =>
        db
          .prepare<[string, string], number>(
            `SELECT EXISTS (SELECT 1 FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
             JOIN spaces s ON s.id = w.space_id
             WHERE s.account_id = ? AND d.event_type = 'creditos.agotados'
               AND d.created_at >= coalesce((SELECT max(created_at) FROM credit_movements
                 WHERE account_id = ? AND delta > 0 AND reason IN ('recarga', 'ajuste')), ''))`,
          )
          .pluck(),
      accountSubscribers: () =>
        db.prepare<[string, string], WebhookRow>(
          `SELECT w.* FROM webhooks w JOIN spaces s ON s.id = w.space_id WHERE s.account_id = ? AND w.active = 1
         AND EXISTS (SELECT 1 FROM json_each(w.events) e WHERE e.value = ?)`,
        ),
      insertDelivery: () =>
        db.prepare(
          `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, body, state, attempts, next_attempt_at,
         give_up_at, manual_requested, created_at) VALUES (@id, @webhook_id, @event_id, @event_type, @body, @state,
         @attempts, @next_attempt_at, @give_up_at, @manual_requested, @created_at)`,
        ),
      due: () =>
        db.prepare<[{ now: number; limit: number }], ClaimedDelivery>(
          `SELECT d.*, w.url, w.secret, w.previous_secret, w.previous_secret_until FROM webhook_deliveries d
         JOIN webhooks w ON w.id = d.webhook_id
         WHERE ${dueBy('@now')} ORDER BY ${DUE_ORDER} LIMIT @limit`,
        ),
      lease: () =>
        db.prepare(
          'UPDATE webhook_deliveries SET lease_until = ? WHERE id = ? AND (lease_until IS NULL OR lease_until < ?)',
        ),
      attempt: () =>
        db.prepare(
          `INSERT INTO webhook_attempts (delivery_id, n, at, status, error, ms, manual)
         VALUES (?, (SELECT COALESCE(MAX(n), 0) + 1 FROM webhook_attempts WHERE delivery_id = ?), ?, ?, ?, ?, ?)`,
        ),
      settle: () =>
        db.prepare(
          `UPDATE webhook_deliveries SET state = ?, attempts = attempts + 1, next_attempt_at = ?, lease_until = NULL,
         manual_requested = 0, last_status = ?, last_error = ?, finished_at = ? WHERE id = ?`,
        ),
      succeeded: () =>
        db.prepare<[string], { consecutive_failures: number }>(
          'UPDATE webhooks SET consecutive_failures = 0 WHERE id = ? RETURNING consecutive_failures',
        ),
      failed: () =>
        db.prepare<[string], { consecutive_failures: number }>(
          'UPDATE webhooks SET consecutive_failures = consecutive_failures + 1 WHERE id = ? RETURNING consecutive_failures',
        ),
      deliveries: () =>
        db.prepare<[string, string | null, string | null, number, number], DeliveryRow>(
          `SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND (? IS NULL OR state = ?)
         ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
        ),
      countDeliveries: () =>
        db.prepare<[string, string | null, string | null], { n: number }>(
          'SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ? AND (? IS NULL OR state = ?)',
        ),
      delivery: () =>
        db.prepare<[string, string], DeliveryRow>('SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND id = ?'),
      redeliver: () => db.prepare(`UPDATE webhook_deliveries SET ${redeliverSet('@now')} WHERE id = @id`),
      prune: () =>
        db.prepare("DELETE FROM webhook_deliveries WHERE state IN ('entregada', 'fallida') AND created_at < ?"),
      nextDue: () => db.prepare<[], { at: number | null }>(NEXT_DUE),
    });
  }

  async insertEndpoint(row: WebhookRow): Promise<void> {
    this.s.insert.run(row);
  }
  async listEndpoints(spaceId: string): Promise<WebhookRow[]> {
    return this.s.list.all(spaceId);
  }
  async countEndpoints(spaceId: string): Promise<number> {
    return this.s.count.get(spaceId)!.n;
  }
  async endpoint(spaceId: string, id: string): Promise<WebhookRow | null> {
    return this.s.get.get(spaceId, id) ?? null;
  }
  async updateEndpoint(id: string, changes: EndpointChanges): Promise<void> {
    const columns = Object.keys(changes);
    // Column names come from the EndpointChanges type, never from a request.
    this.db
      .prepare(`UPDATE webhooks SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`)
      .run({ ...changes, id });
  }
  async enable(id: string, at: string): Promise<void> {
    this.s.enable.run(at, id);
  }
  async disable(id: string, at: string, reason: string): Promise<void> {
    this.s.disable.run(at, reason, at, id);
  }
  async deleteEndpoint(spaceId: string, id: string): Promise<boolean> {
    return this.s.delete.run(spaceId, id).changes > 0;
  }
  async rotateSecret(id: string, secret: string, previousUntil: number, at: string): Promise<void> {
    this.s.rotate.run(previousUntil, secret, at, id);
  }
  async subscribers(spaceId: string, type: string): Promise<WebhookRow[]> {
    return this.s.subscribers.all(spaceId, type);
  }
  async exhaustionToldSinceTopUp(accountId: string): Promise<boolean> {
    return this.s.exhaustionTold.get(accountId, accountId) === 1;
  }

  async accountSubscribers(accountId: string, type: string): Promise<WebhookRow[]> {
    return this.s.accountSubscribers.all(accountId, type);
  }
  async insertExhaustionNotice(accountId: string, rows: readonly DeliveryRow[]): Promise<boolean> {
    // IMMEDIATE: the write lock is taken before the check, so processes on the same file decide one at a time.
    return this.db
      .transaction(() => {
        if (this.s.exhaustionTold.get(accountId, accountId) === 1) return false;
        for (const row of rows) this.s.insertDelivery.run(row);
        return true;
      })
      .immediate();
  }
  async insertDeliveries(rows: readonly DeliveryRow[]): Promise<void> {
    this.db
      .transaction(() => {
        for (const row of rows) this.s.insertDelivery.run(row);
      })
      .immediate();
  }
  async claimDue(now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
    return this.db
      .transaction(() =>
        this.s.due.all({ now, limit }).filter((d) => this.s.lease.run(now + leaseMs, d.id, now).changes === 1),
      )
      .immediate();
  }
  async recordAttempt(delivery: ClaimedDelivery, o: AttemptOutcome): Promise<{ failures: number }> {
    return this.db
      .transaction(() => {
        const a = o.attempt;
        this.s.attempt.run(delivery.id, delivery.id, a.at, a.status, a.error, a.ms, a.manual);
        this.s.settle.run(o.state, o.nextAttemptAt, a.status, a.error, o.finishedAt, delivery.id);
        const streak = (o.succeeded ? this.s.succeeded : this.s.failed).get(delivery.webhook_id);
        return { failures: streak?.consecutive_failures ?? 0 };
      })
      .immediate();
  }
  async deliveries(webhookId: string, page: { limit: number; offset: number; state?: string }) {
    const state = page.state ?? null;
    return {
      total: this.s.countDeliveries.get(webhookId, state, state)!.n,
      rows: this.s.deliveries.all(webhookId, state, state, page.limit, page.offset),
    };
  }
  async delivery(webhookId: string, id: string): Promise<DeliveryRow | null> {
    return this.s.delivery.get(webhookId, id) ?? null;
  }
  async attempts(deliveryIds: readonly string[]): Promise<AttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    return this.db
      .prepare<string[], AttemptRow>(
        `SELECT * FROM webhook_attempts WHERE delivery_id IN (${deliveryIds.map(() => '?').join(',')}) ORDER BY n`,
      )
      .all(...deliveryIds);
  }
  async requestRedelivery(id: string, now: number): Promise<void> {
    this.s.redeliver.run({ now, id });
  }
  async nextDue(): Promise<number | null> {
    return this.s.nextDue.get()?.at ?? null;
  }
  async pruneFinished(before: string): Promise<number> {
    return this.s.prune.run(before).changes;
  }
}
