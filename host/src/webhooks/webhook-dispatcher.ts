import type { Logger as PinoLogger } from 'pino';
import { inject, injectable } from 'tsyringe';
import type { HostConfig } from '../config/host-config.js';
import { HostTokens } from '../kernel/tokens.js';
import { HOST_VERSION } from '../main/version.js';
import { systemResolver, type AddressPolicy, type Clock } from '@cerebro/sdk';
import {
  MANUAL,
  WebhookRepositoryToken,
  type AttemptOutcome,
  type ClaimedDelivery,
  type WebhookRepository,
} from '../storage/port/webhook-repository.js';
import type { WebhookDeliveries } from './webhook-services.js';
import { retryDelay } from './retry-delay.js';
import { sendWebhook, type SendResult } from './webhook-sender.js';
import { SIGNATURE_HEADER, signatureHeader } from './webhook-signature.js';
import { addressPolicyOf, type WebhookSettings } from './webhook-settings.js';

/** A claimed delivery stays with this process for the attempt's time limit plus this margin. */
const LEASE_MARGIN_MS = 30_000;
/** Finished deliveries are kept this long (the owner's history), then deleted; checked about once an hour. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

/**
 * Sends stored deliveries: due ones are leased (so another process does not send them too), POSTed signed, and
 * their attempt recorded. A failure is retried with exponential backoff until 24 h after the event; an endpoint that
 * has not succeeded once during a whole retry window is disabled with a notice the owner sees (`desactivado`).
 * Delivery is at least once: a crash after the receiver answered and before the attempt is recorded sends the same
 * event (same `id`) again.
 */
@injectable()
export class WebhookDispatcher implements WebhookDeliveries {
  private timer: NodeJS.Timeout | null = null;
  private running = 0;
  private stopped = true;
  private lastPrune = 0;
  private readonly inFlight = new Set<Promise<void>>();
  /** The look at due deliveries in progress: one at a time, so two never claim for the same free slots. */
  private looking: Promise<void> | null = null;
  private lookAgain = false;
  private readonly policy: AddressPolicy;
  private readonly settings: WebhookSettings;
  private readonly log: PinoLogger;
  private readonly userAgent = `Cerebro-Webhooks/${HOST_VERSION}`;

  constructor(
    @inject(WebhookRepositoryToken) private readonly repo: WebhookRepository,
    @inject(HostTokens.Config) config: HostConfig,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(HostTokens.RootLogger) log: PinoLogger,
  ) {
    this.settings = config.webhooks;
    this.policy = addressPolicyOf(this.settings);
    this.log = log.child({ componente: 'webhooks' });
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops claiming; waits for the attempts in flight to be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.looking;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Looks for due deliveries now (an event was stored, a redelivery asked for). */
  wake(): void {
    if (!this.stopped) this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref();
  }

  private tick(): void {
    this.timer = null;
    if (this.stopped) return;
    if (this.looking) {
      this.lookAgain = true;
      return;
    }
    this.looking = this.look().finally(() => {
      this.looking = null;
      if (this.lookAgain) {
        this.lookAgain = false;
        this.wake();
      }
    });
  }

  /** Claims what the free slots allow, starts those attempts, and schedules the next look. Never rejects. */
  private async look(): Promise<void> {
    try {
      await this.pruneNowAndThen();
      const free = this.settings.concurrency - this.running;
      if (free > 0) {
        const now = this.clock.now();
        for (const delivery of await this.repo.claimDue(now, this.settings.timeoutMs + LEASE_MARGIN_MS, free)) {
          const job = this.attempt(delivery).finally(() => {
            this.inFlight.delete(job);
            this.running--;
            this.wake();
          });
          this.running++;
          this.inFlight.add(job);
        }
      }
    } catch (err) {
      this.log.error({ err: (err as Error).message }, 'no se pudieron leer las entregas pendientes');
    }
    const next = await this.repo.nextDue().catch(() => null);
    const wait =
      next === null ? this.settings.pollMs : Math.max(0, Math.min(this.settings.pollMs, next - this.clock.now()));
    // While every slot is busy, the end of an attempt wakes the dispatcher; otherwise poll (another process may add).
    if (!this.stopped && !this.timer)
      this.schedule(this.running >= this.settings.concurrency ? this.settings.pollMs : wait);
  }

  /** Keeps the history bounded: finished deliveries older than the retention go, at most once an hour. */
  private async pruneNowAndThen(): Promise<void> {
    const now = this.clock.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    const removed = await this.repo.pruneFinished(new Date(now - DELIVERY_RETENTION_MS).toISOString());
    if (removed > 0) this.log.info({ entregas: removed }, 'entregas antiguas eliminadas');
  }

  private async attempt(d: ClaimedDelivery): Promise<void> {
    const now = this.clock.now();
    const t = Math.floor(now / 1000);
    const secrets = [d.secret];
    if (d.previous_secret && (d.previous_secret_until ?? 0) > now) secrets.push(d.previous_secret);
    const event = JSON.parse(d.body) as { id: string; tipo: string };
    const result: SendResult = await sendWebhook(
      d.url,
      d.body,
      {
        [SIGNATURE_HEADER]: signatureHeader(secrets, t, d.body),
        'Cerebro-Evento': event.tipo,
        'Cerebro-Evento-Id': event.id,
        'Cerebro-Entrega': d.id,
        'user-agent': this.userAgent,
      },
      { policy: this.policy, resolver: systemResolver, timeoutMs: this.settings.timeoutMs },
    );
    const done = this.clock.now();
    const succeeded = result.error === null;
    const manual = d.manual_requested !== MANUAL.none;
    const nextAt = this.nextAttemptAt(d, done);
    // An attempt by hand on a delivery still in its schedule is an extra one: a failure leaves the schedule as it was.
    // On a delivered or given-up delivery it is the one attempt asked for. Retries end with the event's window.
    const retry = !succeeded && d.manual_requested !== MANUAL.once && nextAt <= d.give_up_at;
    const outcome: AttemptOutcome = {
      attempt: {
        at: new Date(done).toISOString(),
        status: result.status,
        error: result.error,
        ms: result.ms,
        manual: manual ? 1 : 0,
      },
      state: succeeded ? 'entregada' : retry ? 'pendiente' : 'fallida',
      nextAttemptAt: retry ? nextAt : null,
      finishedAt: retry ? null : new Date(done).toISOString(),
      succeeded,
    };
    let streak;
    try {
      streak = await this.repo.recordAttempt(d, outcome);
    } catch (err) {
      // The lease ends by itself: the delivery is tried again (at least once).
      this.log.error({ entrega: d.id, err: (err as Error).message }, 'no se pudo guardar el intento');
      return;
    }
    const fields = { webhook: d.webhook_id, entrega: d.id, evento: event.id, tipo: event.tipo };
    if (succeeded) {
      this.log.info({ ...fields, estado_http: result.status, ms: result.ms }, 'webhook entregado');
      return;
    }
    this.log.warn(
      { ...fields, estado_http: result.status, error: result.error, intento: d.attempts + 1 },
      'entrega de webhook fallida',
    );
    // Given up after a whole retry window with no success of any delivery since this one's first attempt (the streak
    // of failures covers all of its attempts): the endpoint is taken as gone.
    const givenUp = outcome.state === 'fallida' && !manual;
    if (givenUp && streak.failures >= d.attempts + 1) {
      const reason = `Desactivado automáticamente: ninguna entrega tuvo éxito en ${describeWindow(this.settings.retryWindowMs)} (${streak.failures} intentos fallidos seguidos; el último: ${String(result.error).replace(/\.$/, '')}).`;
      try {
        await this.repo.disable(d.webhook_id, new Date(done).toISOString(), reason);
        this.log.warn({ ...fields, fallos: streak.failures }, 'webhook desactivado tras fallar de forma continuada');
      } catch (err) {
        // Still failing: the next given-up delivery disables it.
        this.log.error({ ...fields, err: (err as Error).message }, 'no se pudo desactivar el webhook');
      }
    }
  }

  /**
   * When to try again after a failed attempt: the attempt that was planned when one by hand came first (if its time
   * has not come meanwhile), else the next backoff step.
   */
  private nextAttemptAt(d: ClaimedDelivery, done: number): number {
    if (d.manual_requested === MANUAL.extra && d.next_attempt_at !== null && d.next_attempt_at > done)
      return d.next_attempt_at;
    return done + retryDelay(d.attempts + 1, this.settings.retryBaseMs, this.settings.maxDelayMs);
  }
}

function describeWindow(ms: number): string {
  if (ms % 3600_000 === 0) return `${ms / 3600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 100) / 10} s`;
}
