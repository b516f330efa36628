import { AddressPolicy } from '@cerebro/sdk';

/** How webhooks are delivered (`CEREBRO_WEBHOOKS_*`). */
export interface WebhookSettings {
  /** Host names and CIDR ranges deliveries may reach although not public (as `CEREBRO_FUENTES_PERMITIDOS`). */
  allowed: string;
  /** Time one delivery attempt may take. */
  timeoutMs: number;
  /** First retry delay; each later one doubles (with ±20 % jitter), up to `maxDelayMs`. */
  retryBaseMs: number;
  maxDelayMs: number;
  /** How long a delivery is retried, and how long an endpoint may fail without a success before it is disabled. */
  retryWindowMs: number;
  /** How often the dispatcher looks for due deliveries (besides being woken when an event is stored). */
  pollMs: number;
  /** Deliveries sent at the same time, over all endpoints. */
  concurrency: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  allowed: '',
  timeoutMs: 10_000,
  retryBaseMs: 30_000,
  maxDelayMs: 4 * 3600_000,
  retryWindowMs: 24 * 3600_000,
  pollMs: 1_000,
  concurrency: 4,
};

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} debe ser un entero positivo (recibido "${raw}").`);
  return value;
}

export function loadWebhookSettings(env: NodeJS.ProcessEnv): WebhookSettings {
  const d = DEFAULT_WEBHOOK_SETTINGS;
  return {
    allowed: env.CEREBRO_WEBHOOKS_PERMITIDOS ?? d.allowed,
    timeoutMs: positiveInt(env, 'CEREBRO_WEBHOOKS_TIMEOUT_MS', d.timeoutMs),
    retryBaseMs: positiveInt(env, 'CEREBRO_WEBHOOKS_RETRY_BASE_MS', d.retryBaseMs),
    maxDelayMs: positiveInt(env, 'CEREBRO_WEBHOOKS_RETRY_MAX_DELAY_MS', d.maxDelayMs),
    retryWindowMs: positiveInt(env, 'CEREBRO_WEBHOOKS_RETRY_WINDOW_MS', d.retryWindowMs),
    pollMs: positiveInt(env, 'CEREBRO_WEBHOOKS_POLL_MS', d.pollMs),
    concurrency: positiveInt(env, 'CEREBRO_WEBHOOKS_CONCURRENCY', d.concurrency),
  };
}

export const addressPolicyOf = (settings: WebhookSettings): AddressPolicy =>
  AddressPolicy.fromSetting(settings.allowed);
