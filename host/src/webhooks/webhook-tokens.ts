import { createToken } from '@cerebro/sdk';
import type { WebhookRepository } from './webhook-repository.js';
import type { WebhookDeliveries, Webhooks } from './webhook-services.js';

/**
 * Tokens of the webhooks feature in the host's container, typed by interfaces (plugins reach it only through
 * `HostServices.Events`).
 */
export const WebhookTokens = {
  Repository: createToken<WebhookRepository>('host:webhook-repository'),
  Service: createToken<Webhooks>('host:webhooks'),
  Dispatcher: createToken<WebhookDeliveries>('host:webhook-dispatcher'),
} as const;
