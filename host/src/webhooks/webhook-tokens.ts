import { createToken } from '@cerebro/sdk';
import type { WebhookDeliveries, Webhooks } from './webhook-services.js';

/**
 * Tokens of the webhooks feature in the host's container, typed by interfaces (plugins reach it only through
 * `HostServices.Events`).
 */
export const WebhookTokens = {
  Service: createToken<Webhooks>('host:webhooks'),
  Dispatcher: createToken<WebhookDeliveries>('host:webhook-dispatcher'),
} as const;
