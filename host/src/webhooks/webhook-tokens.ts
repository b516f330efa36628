import { createToken } from '@cerebro/sdk';
import type { WebhookDispatcher } from './webhook-dispatcher.js';
import type { WebhookRepository } from './webhook-repository.js';
import type { WebhookService } from './webhook-service.js';

/** Tokens of the webhooks feature in the host's container (plugins reach it only through `HostServices.Events`). */
export const WebhookTokens = {
  Repository: createToken<WebhookRepository>('host:webhook-repository'),
  Service: createToken<WebhookService>('host:webhooks'),
  Dispatcher: createToken<WebhookDispatcher>('host:webhook-dispatcher'),
} as const;
