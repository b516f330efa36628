import { randomBytes } from 'node:crypto';
import type { Logger as PinoLogger } from 'pino';
import { inject, injectable } from 'tsyringe';
import type { HostConfig } from '../config/host-config.js';
import { HostTokens } from '../kernel/tokens.js';
import { apiError, invalidField, WEBHOOK_EVENTS, type Clock, type WebhookEventType } from '@cerebro/sdk';
import {
  WebhookRepositoryToken,
  type DeliveryRow,
  type WebhookRepository,
  type WebhookRow,
} from '../storage/port/webhook-repository.js';
import { newWebhookSecret } from './webhook-signature.js';
import { addressPolicyOf, type WebhookSettings } from './webhook-settings.js';
import { urlProblem } from './webhook-sender.js';
import { deliveryView, webhookView } from './webhook-views.js';
import type { DeliveryPage, WebhookInput, Webhooks } from './webhook-services.js';

/** Endpoints one space may register. */
export const MAX_WEBHOOKS_PER_SPACE = 20;
/** Largest `datos` of one event, serialised. */
export const MAX_EVENT_DATA_BYTES = 64 * 1024;
/** How long deliveries also carry a signature with the previous secret after a rotation. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600_000;

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;

/**
 * Webhooks of spaces: the owner's endpoints (created with a secret shown once, rotatable), and the events they
 * receive. Publishing an event stores one delivery per subscribed endpoint in the same call, so it is sent even if
 * the process stops right after; the dispatcher sends it, retries it and records every attempt.
 */
@injectable()
export class WebhookService implements Webhooks {
  private wake: () => void = () => {};
  private readonly settings: WebhookSettings;
  private readonly log: PinoLogger;
  /** The credit events of each account still being decided and stored, in the order the ledger told them. */
  private readonly accountTurns = new Map<string, Promise<unknown>>();

  constructor(
    @inject(WebhookRepositoryToken) private readonly repo: WebhookRepository,
    @inject(HostTokens.Config) config: HostConfig,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(HostTokens.RootLogger) log: PinoLogger,
  ) {
    this.settings = config.webhooks;
    this.log = log.child({ componente: 'webhooks' });
  }

  /** Called after events are stored (the dispatcher sends them at once instead of at its next poll). */
  onStored(wake: () => void): void {
    this.wake = wake;
  }

  async list(space: string) {
    return (await this.repo.listEndpoints(space)).map(webhookView);
  }

  async get(space: string, webhook: string) {
    return webhookView(await this.row(space, webhook));
  }

  async create(space: string, input: WebhookInput) {
    this.checkUrl(input.url);
    if ((await this.repo.countEndpoints(space)) >= MAX_WEBHOOKS_PER_SPACE)
      throw apiError('conflict', `Un espacio admite como máximo ${MAX_WEBHOOKS_PER_SPACE} webhooks.`);
    const now = this.nowIso();
    const secret = newWebhookSecret();
    const row: WebhookRow = {
      id: id('whk'),
      space_id: space,
      url: input.url,
      events: JSON.stringify([...new Set(input.eventos)]),
      description: input.descripcion ?? '',
      credit_threshold: input.umbral_creditos ?? 100,
      secret,
      previous_secret: null,
      previous_secret_until: null,
      active: input.activo === false ? 0 : 1,
      disabled_at: null,
      disabled_reason: null,
      consecutive_failures: 0,
      created_at: now,
      updated_at: now,
    };
    await this.repo.insertEndpoint(row);
    return { ...webhookView(row), secreto: secret };
  }

  async update(space: string, webhook: string, input: Partial<WebhookInput>) {
    const row = await this.row(space, webhook);
    if (input.url !== undefined) this.checkUrl(input.url);
    const now = this.nowIso();
    await this.repo.updateEndpoint(row.id, {
      updated_at: now,
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.eventos !== undefined ? { events: JSON.stringify([...new Set(input.eventos)]) } : {}),
      ...(input.descripcion !== undefined ? { description: input.descripcion } : {}),
      ...(input.umbral_creditos !== undefined ? { credit_threshold: input.umbral_creditos } : {}),
    });
    // Switching on (again) clears the notice of an automatic disable and the failure streak.
    if (input.activo === true) await this.repo.enable(row.id, now);
    else if (input.activo === false && row.active === 1)
      await this.repo.disable(row.id, now, 'Desactivado por el propietario.');
    if (input.activo === true) this.wake();
    return this.get(space, webhook);
  }

  async remove(space: string, webhook: string): Promise<void> {
    if (!(await this.repo.deleteEndpoint(space, webhook))) throw notFound();
  }

  async rotateSecret(space: string, webhook: string) {
    const row = await this.row(space, webhook);
    const secret = newWebhookSecret();
    await this.repo.rotateSecret(row.id, secret, this.clock.now() + PREVIOUS_SECRET_GRACE_MS, this.nowIso());
    return {
      secreto: secret,
      anterior_valido_hasta: new Date(this.clock.now() + PREVIOUS_SECRET_GRACE_MS).toISOString(),
    };
  }

  async deliveries(
    space: string,
    webhook: string,
    page: { limite: number; desde: number; estado?: string },
  ): Promise<DeliveryPage> {
    const row = await this.row(space, webhook);
    const { total, rows } = await this.repo.deliveries(row.id, {
      limit: page.limite,
      offset: page.desde,
      ...(page.estado ? { state: page.estado } : {}),
    });
    const attempts = await this.repo.attempts(rows.map((r) => r.id));
    return {
      entregas: rows.map((r) =>
        deliveryView(
          r,
          attempts.filter((a) => a.delivery_id === r.id),
        ),
      ),
      total,
      limite: page.limite,
      desde: page.desde,
    };
  }

  /**
   * Queues one more attempt of a delivery now, whatever its state. A pending one keeps its retry schedule (the attempt
   * is an extra one); a delivered or given-up one gets that one attempt.
   */
  async redeliver(space: string, webhook: string, delivery: string) {
    const row = await this.row(space, webhook);
    const found = await this.repo.delivery(row.id, delivery);
    if (!found) throw apiError('not_found', 'Entrega no encontrada.');
    await this.repo.requestRedelivery(found.id, this.clock.now());
    this.wake();
    const updated = (await this.repo.delivery(row.id, delivery))!;
    return deliveryView(updated, await this.repo.attempts([updated.id]));
  }

  /**
   * Stores an event for every active endpoint of the space subscribed to `type` (or those `only` keeps). The event
   * and its id are made at once (an unknown type or oversized data throws `TypeError`, a programming error);
   * `stored` settles when its deliveries are written. An event nobody subscribed to stores nothing.
   */
  publish(
    space: string,
    type: WebhookEventType,
    datos: Record<string, unknown>,
    only?: (w: WebhookRow) => boolean,
  ): { id: string; stored: Promise<void> } {
    const { event, body } = this.event(space, type, datos);
    return { id: event.id, stored: this.store(event, body, only) };
  }

  private async store(
    event: { id: string; tipo: WebhookEventType; creado: string; espacio: string },
    body: string,
    only: ((w: WebhookRow) => boolean) | undefined,
  ): Promise<void> {
    const { espacio: space, tipo: type } = event;
    const targets = (await this.repo.subscribers(space, type)).filter((w) => !only || only(w));
    if (targets.length === 0) return;
    const rows = this.deliveryRows(event, body, targets);
    await this.repo.insertDeliveries(rows);
    this.log.debug({ espacio: space, tipo: type, evento: event.id, entregas: rows.length }, 'evento guardado');
    this.wake();
  }

  /** An event, made as `publish` makes it, ready to store: its id, its serialised body. */
  private event(space: string, type: WebhookEventType, datos: Record<string, unknown>) {
    if (!(type in WEBHOOK_EVENTS)) throw new TypeError(`Tipo de evento desconocido: ${type}`);
    const event = { id: id('evt'), tipo: type, creado: this.nowIso(), espacio: space, datos };
    const body = JSON.stringify(event);
    if (Buffer.byteLength(body) > MAX_EVENT_DATA_BYTES + 512)
      throw new TypeError(`Los datos del evento ${type} superan ${MAX_EVENT_DATA_BYTES} bytes.`);
    return { event, body };
  }

  private deliveryRows(
    event: { id: string; tipo: WebhookEventType; creado: string },
    body: string,
    targets: readonly WebhookRow[],
  ): DeliveryRow[] {
    const now = this.clock.now();
    return targets.map((w) => ({
      id: id('ent'),
      webhook_id: w.id,
      event_id: event.id,
      event_type: event.tipo,
      body,
      state: 'pendiente',
      attempts: 0,
      next_attempt_at: now,
      give_up_at: now + this.settings.retryWindowMs,
      manual_requested: 0,
      last_status: null,
      last_error: null,
      created_at: event.creado,
      finished_at: null,
    }));
  }

  /**
   * After a debit moved an account's balance from `before` to `after`: `creditos.bajos` to each endpoint whose
   * threshold was crossed downwards, `creditos.agotados` when the balance reached zero (in every space of the account)
   * unless a refused request already told them since the last top-up.
   */
  creditsDebited(accountId: string, before: number, after: number): Promise<void> {
    return this.inAccountTurn(accountId, () => this.decideDebited(accountId, before, after));
  }

  private async decideDebited(accountId: string, before: number, after: number): Promise<void> {
    const stored: Promise<void>[] = [];
    for (const w of await this.repo.accountSubscribers(accountId, 'creditos.bajos')) {
      if (before >= w.credit_threshold && after < w.credit_threshold)
        stored.push(
          this.publish(
            w.space_id,
            'creditos.bajos',
            { cuenta: accountId, saldo: after, umbral: w.credit_threshold },
            (s) => s.id === w.id,
          ).stored,
        );
    }
    if (after <= 0 && before > 0) stored.push(this.tellExhaustion(accountId, after));
    await Promise.all(stored);
  }

  /**
   * After a debit was refused for lack of credits: `creditos.agotados` with the balance that could not pay, unless
   * the account's endpoints were already told since its last top-up (a balance that reached zero told them then;
   * every further refused request must not tell them again).
   */
  creditsRefused(accountId: string, balance: number): Promise<void> {
    return this.inAccountTurn(accountId, () => this.decideRefused(accountId, balance));
  }

  private async decideRefused(accountId: string, balance: number): Promise<void> {
    // Cheap and usual: every refused request after the first finds the notice already told.
    if (await this.repo.exhaustionToldSinceTopUp(accountId)) return;
    await this.tellExhaustion(accountId, balance);
  }

  /**
   * `creditos.agotados` to the endpoints of every space of the account (one event per space), stored only if no
   * other decision, in this process or another host, told it since the last top-up: the check and the write are one
   * step of the repository.
   */
  private async tellExhaustion(accountId: string, balance: number): Promise<void> {
    const subscribers = await this.repo.accountSubscribers(accountId, 'creditos.agotados');
    if (subscribers.length === 0) return;
    const rows: DeliveryRow[] = [];
    for (const space of new Set(subscribers.map((w) => w.space_id))) {
      const { event, body } = this.event(space, 'creditos.agotados', { cuenta: accountId, saldo: balance });
      rows.push(
        ...this.deliveryRows(
          event,
          body,
          subscribers.filter((w) => w.space_id === space),
        ),
      );
    }
    if (!(await this.repo.insertExhaustionNotice(accountId, rows))) return;
    this.log.debug({ cuenta: accountId, tipo: 'creditos.agotados', entregas: rows.length }, 'evento guardado');
    this.wake();
  }

  /**
   * Runs an account's credit-event decision after the ones told before it have stored theirs. Whether to tell
   * `creditos.agotados` reads what the previous ones stored: on a database server those writes are round trips
   * that end after the request's answer, and a client's next request (a debit reaching zero, then a refused one)
   * would otherwise decide before them and tell the same exhaustion twice.
   */
  private inAccountTurn(accountId: string, work: () => Promise<void>): Promise<void> {
    const run = (this.accountTurns.get(accountId) ?? Promise.resolve()).catch(() => undefined).then(work);
    this.accountTurns.set(accountId, run);
    // Forgotten once idle, so the map does not grow with every account ever charged.
    void run
      .catch(() => undefined)
      .then(() => {
        if (this.accountTurns.get(accountId) === run) this.accountTurns.delete(accountId);
      });
    return run;
  }

  private checkUrl(url: string): void {
    const problem = urlProblem(url, addressPolicyOf(this.settings));
    if (problem) throw invalidField(['url'], problem);
  }

  private async row(space: string, webhook: string): Promise<WebhookRow> {
    const row = await this.repo.endpoint(space, webhook);
    if (!row) throw notFound();
    return row;
  }

  private nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

const notFound = () => apiError('not_found', 'Webhook no encontrado en este espacio.');
