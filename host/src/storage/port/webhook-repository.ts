import { createToken } from '@cerebro/sdk';

/**
 * What `manual_requested` holds. A delivery still in its retry schedule keeps it through an attempt asked for by hand
 * (`extra`: its `next_attempt_at` stays the planned automatic attempt); a delivered or given-up one gets that one
 * attempt only (`once`).
 */
export const MANUAL = { none: 0, once: 1, extra: 2 } as const;

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
  /** A redelivery asked for by hand and not yet attempted: one of `MANUAL`. */
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
 * Storage of webhooks, their deliveries and attempts. Each method is one statement or one transaction; `claimDue`
 * and `recordAttempt` must stay atomic on any database (a delivery leased by one process is skipped by the others;
 * an attempt, its delivery's new state and the endpoint's failure streak are written together).
 */
export interface WebhookRepository {
  insertEndpoint(row: WebhookRow): Promise<void>;
  listEndpoints(spaceId: string): Promise<WebhookRow[]>;
  countEndpoints(spaceId: string): Promise<number>;
  endpoint(spaceId: string, id: string): Promise<WebhookRow | null>;
  updateEndpoint(id: string, changes: EndpointChanges): Promise<void>;
  /** Re-enables (or keeps enabled) an endpoint: clears the notice and the failure streak. */
  enable(id: string, at: string): Promise<void>;
  disable(id: string, at: string, reason: string): Promise<void>;
  deleteEndpoint(spaceId: string, id: string): Promise<boolean>;
  rotateSecret(id: string, secret: string, previousUntil: number, at: string): Promise<void>;
  /** Active endpoints of a space subscribed to an event type. */
  subscribers(spaceId: string, type: string): Promise<WebhookRow[]>;
  /** Active endpoints subscribed to an event type in every space billed to an account. */
  accountSubscribers(accountId: string, type: string): Promise<WebhookRow[]>;
  /** Whether a `creditos.agotados` was stored for the account since its last top-up (`recarga` or positive `ajuste`). */
  exhaustionToldSinceTopUp(accountId: string): Promise<boolean>;
  insertDeliveries(rows: readonly DeliveryRow[]): Promise<void>;
  /**
   * Stores the deliveries of an account's `creditos.agotados` unless one was stored since its last top-up, as one
   * step that every process sharing the database takes in turn: two hosts that each saw no notice would otherwise
   * both tell the same exhaustion. Returns whether they were stored.
   */
  insertExhaustionNotice(accountId: string, rows: readonly DeliveryRow[]): Promise<boolean>;
  /** Takes up to `limit` due deliveries for `leaseMs`; another process skips them until the lease ends. */
  claimDue(now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]>;
  /** Records an attempt and its outcome in one transaction; returns the endpoint's failure streak after it. */
  recordAttempt(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<{ failures: number }>;
  deliveries(
    webhookId: string,
    page: { limit: number; offset: number; state?: string },
  ): Promise<{
    total: number;
    rows: DeliveryRow[];
  }>;
  delivery(webhookId: string, id: string): Promise<DeliveryRow | null>;
  attempts(deliveryIds: readonly string[]): Promise<AttemptRow[]>;
  /**
   * Queues one attempt by hand, due at once whatever its `next_attempt_at`: a pending delivery keeps its planned
   * attempt (`MANUAL.extra`); a delivered or given-up one is pending again, due `now`, for that attempt (`MANUAL.once`).
   */
  requestRedelivery(id: string, now: number): Promise<void>;
  /**
   * The earliest time a pending delivery is due (0 for one asked for by hand), or null; a delivery leased to an
   * attempt in flight counts from its lease's end (the attempt's end wakes the dispatcher anyway).
   */
  nextDue(): Promise<number | null>;
  /** Deletes delivered and given-up deliveries (and their attempts) created before `before` (ISO); returns how many. */
  pruneFinished(before: string): Promise<number>;
}

export const WebhookRepositoryToken = createToken<WebhookRepository>('host:webhook-repository');
