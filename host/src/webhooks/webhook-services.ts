// The webhooks feature's service interfaces, which its tokens are typed by: the composition root, the routes and the
// event sources depend on these shapes, not on the classes that implement them.
import type { WebhookEventType } from '@cerebro/sdk';
import type { WebhookRow } from '../storage/port/webhook-repository.js';
import type { deliveryView, webhookView } from './webhook-views.js';

export interface WebhookInput {
  url: string;
  eventos: WebhookEventType[];
  descripcion?: string;
  umbral_creditos?: number;
  activo?: boolean;
}

/** An endpoint as the API shows it: never its secret. */
export type WebhookView = ReturnType<typeof webhookView>;
/** A delivery with the event it carries and its attempts. */
export type DeliveryView = ReturnType<typeof deliveryView>;

export interface DeliveryPage {
  entregas: DeliveryView[];
  total: number;
  limite: number;
  desde: number;
}

/**
 * Webhooks of spaces: the owner's endpoints (created with a secret shown once, rotatable), and the events they
 * receive, stored as deliveries for the dispatcher to send.
 */
export interface Webhooks {
  /** Called after events are stored (the dispatcher sends them at once instead of at its next poll). */
  onStored(wake: () => void): void;
  list(space: string): Promise<WebhookView[]>;
  get(space: string, webhook: string): Promise<WebhookView>;
  create(space: string, input: WebhookInput): Promise<WebhookView & { secreto: string }>;
  update(space: string, webhook: string, input: Partial<WebhookInput>): Promise<WebhookView>;
  remove(space: string, webhook: string): Promise<void>;
  rotateSecret(space: string, webhook: string): Promise<{ secreto: string; anterior_valido_hasta: string }>;
  deliveries(
    space: string,
    webhook: string,
    page: { limite: number; desde: number; estado?: string },
  ): Promise<DeliveryPage>;
  /** Queues one more attempt of a delivery now, whatever its state (a pending one is tried at once). */
  redeliver(space: string, webhook: string, delivery: string): Promise<DeliveryView>;
  /**
   * Stores an event for every active endpoint of the space subscribed to `type` (or those `only` keeps). The event
   * and its id are made at once (an unknown type or oversized data throws `TypeError` synchronously, a programming
   * error); `stored` settles when its deliveries are written. An event nobody subscribed to stores nothing.
   */
  publish(
    space: string,
    type: WebhookEventType,
    datos: Record<string, unknown>,
    only?: (w: WebhookRow) => boolean,
  ): { id: string; stored: Promise<void> };
  /** After a debit moved an account's balance from `before` to `after`: the credit events it crosses. */
  creditsDebited(accountId: string, before: number, after: number): Promise<void>;
  /**
   * After a debit was refused for lack of credits: `creditos.agotados` (with the balance that could not pay), once
   * per exhaustion: not again until the account is topped up (`recarga` or a positive `ajuste`).
   */
  creditsRefused(accountId: string, balance: number): Promise<void>;
}

/** Sends stored deliveries in the background, retrying them, until stopped. */
export interface WebhookDeliveries {
  start(): void;
  /** Stops claiming; waits for the attempts in flight to be recorded. */
  stop(): Promise<void>;
  /** Looks for due deliveries now (an event was stored, a redelivery asked for). */
  wake(): void;
}
