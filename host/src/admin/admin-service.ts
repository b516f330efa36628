import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { MAX_OFFSET, apiError, validationError, type Clock, type Permission, type ValidationIssue } from '@cerebro/sdk';
import { issueCredential, parseCredential, secretMatches } from '../access/credentials.js';
import type { ConsoleSessions } from '../studio/studio-services.js';
import { emailIssue, normalizeEmail } from '../studio/owner-credentials.js';
import type { OwnerLogins } from '../studio/studio-services.js';
import type { SignInLinks } from '../studio/studio-services.js';
import type { CreditLedger } from '../credits/credit-services.js';
import { HostTokens } from '../kernel/tokens.js';
import type { AccessDirectory, CreatedKey, KeyIssuer } from '../access/access-services.js';
import { AdminViews, type AdminKeyView, type OwnerView, type SpaceView } from './admin-views.js';
import { AdminViewRepositoryToken, type AdminViewRepository } from '../storage/port/admin-view-repository.js';
import { DirectoryRepositoryToken, type DirectoryRepository } from '../storage/port/directory-repository.js';
import {
  OperatorDirectoryRepositoryToken,
  type OperatorDirectoryRepository,
  type SpaceColumns,
} from '../storage/port/operator-directory-repository.js';
import { parseIsoDate } from './iso-date.js';
import { spaceIdIssue } from './space-id.js';
import { NO_LIMITS } from '../access/key-limits.js';
import type { LimitPair } from '../limits/limit-services.js';
import { ModuleCatalogToken } from './module-catalog.js';
import type { AdminActions, AdminPage, ModuleCatalog, PaymentState, SpaceChanges } from './admin-services.js';

const KEY_ID = /^[0-9a-f]{16}$/;
/** Paging of the operator's lists: `limite` 1..MAX_PAGE (default DEFAULT_PAGE), `desde` >= 0. */
export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;
const MAX_NAME = 120;

/**
 * Collects the problems of one operator action's input, named by their wire field (`creditos`, `prueba_hasta`),
 * and throws them together as one 422. HTTP and CLI go through the same checks.
 */
class InputCheck {
  private readonly issues: ValidationIssue[] = [];

  /** `where`: the part of the request the fields come from (`body`, or `query` for paging). */
  constructor(private readonly where: 'body' | 'query' = 'body') {}

  fail(field: string | (string | number)[], msg: string, type = 'value_error'): void {
    this.issues.push({ loc: [this.where, ...(Array.isArray(field) ? field : [field])], msg, type });
  }

  /** An integer within `min..max` (paging); `undefined` takes `fallback`. */
  integer(field: string, value: unknown, min: number, max: number, fallback: number): number {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
      this.fail(field, `Debe ser un entero de ${min} a ${max}.`, 'int_range');
      return fallback;
    }
    return value;
  }

  text(field: string, value: unknown, max = MAX_NAME): string {
    const text = typeof value === 'string' ? value.trim() : '';
    if (!text || [...text].length > max)
      this.fail(field, `Debe ser un texto de 1 a ${max} caracteres.`, 'string_length');
    return text;
  }

  /** A key's own limit: an integer ≥ 1, or null (none: only the spaces' apply); `undefined` keeps it. */
  keyLimit(field: string, value: unknown): void {
    if (value === undefined || value === null) return;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > 1_000_000_000)
      this.fail(
        field,
        'Debe ser un entero de 1 a 1000000000, o null (sin límite propio: solo el del espacio).',
        'int_range',
      );
  }

  /** A strict ISO 8601 date, normalised to UTC; `null` clears it. */
  date(field: string, value: unknown): string | null {
    if (value === null) return null;
    const date = typeof value === 'string' ? parseIsoDate(value) : undefined;
    if (date === undefined)
      this.fail(
        field,
        'Debe ser una fecha ISO 8601 real: 2026-12-31, o 2026-12-31T18:00:00Z con su zona.',
        'date_format',
      );
    return date ?? null;
  }

  done(): void {
    if (this.issues.length) throw validationError(this.issues);
  }
}

/**
 * Operator actions on owners, spaces, accounts and credentials. Shared by the CLI, the `/api/admin` routes, the
 * first-run bootstrap and the testing kit, so every path applies the same rules.
 */
@injectable()
export class AdminService implements AdminActions {
  constructor(
    @inject(OperatorDirectoryRepositoryToken) private readonly store: OperatorDirectoryRepository,
    @inject(DirectoryRepositoryToken) private readonly keyStore: DirectoryRepository,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(HostTokens.Credits) private readonly credits: CreditLedger,
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
    @inject(ModuleCatalogToken) private readonly modules: ModuleCatalog,
    @inject(HostTokens.Sessions) private readonly sessions: ConsoleSessions,
    @inject(HostTokens.Logins) private readonly logins: OwnerLogins,
    @inject(HostTokens.SignInLinks) private readonly links: SignInLinks,
    @inject(HostTokens.KeyIssuer) private readonly keys: KeyIssuer,
    @inject(AdminViewRepositoryToken) views: AdminViewRepository,
  ) {
    this.views = new AdminViews(views);
  }

  private readonly views: AdminViews;

  /** Runs a write to owners, spaces, modules or credentials, then tells every process's access memo it is stale. */
  private async write<T>(work: Promise<T>): Promise<T> {
    const result = await work;
    await this.directory.invalidate();
    return result;
  }

  private iso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  private async requireOwner(id: string): Promise<void> {
    if (!(await this.store.ownerLive(id))) throw apiError('not_found', 'Propietario no encontrado.');
  }

  private async requireSpace(id: string): Promise<void> {
    if (!(await this.store.spaceExists(id))) throw apiError('not_found', 'Espacio no encontrado.');
  }

  private async requireAccount(id: string): Promise<void> {
    if (!(await this.store.accountExists(id))) throw apiError('not_found', 'Cuenta no encontrada.');
  }

  private unknownModuleText(module: string): string {
    return `Módulo desconocido: "${module}". Módulos disponibles: ${this.modules.list().join(', ')}.`;
  }

  /** Creates an owner user and their billing account (`cuenta`). */
  async createOwner(input: {
    name: string;
    email?: string;
    id?: string;
    credits?: number;
  }): Promise<{ id: string; cuenta: string }> {
    const check = new InputCheck();
    const name = check.text('nombre', input.name);
    const badEmail = input.email === undefined ? null : emailIssue('email', input.email);
    if (badEmail) check.fail('email', badEmail.msg, badEmail.type);
    const credits = input.credits ?? 0;
    if (!Number.isSafeInteger(credits) || credits < 0)
      check.fail('creditos', 'Debe ser un entero mayor o igual que 0.', 'greater_than_equal');
    check.done();
    const id = input.id ?? `own_${randomBytes(6).toString('hex')}`;
    if (await this.store.ownerIdTaken(id)) throw apiError('conflict', `El propietario "${id}" ya existe.`);
    const email = input.email === undefined ? null : normalizeEmail(input.email);
    if (email !== null) await this.logins.assertEmailFree(email, null);
    const account = `cta_${randomBytes(6).toString('hex')}`;
    await this.write(this.store.createOwner({ id, name, email, accountId: account, createdAt: this.iso() }));
    if (credits > 0) await this.credits.credit(account, credits, 'recarga');
    return { id, cuenta: account };
  }

  /** Deletes an owner: their keys and sessions stop working at once (401). Spaces keep their data, unowned. */
  async deleteOwner(id: string): Promise<void> {
    if (!(await this.write(this.store.deleteOwner(id, this.iso()))))
      throw apiError('not_found', 'Propietario no encontrado.');
  }

  async accountOf(ownerId: string): Promise<string> {
    const account = await this.store.accountOf(ownerId);
    if (!account) throw apiError('not_found', 'El propietario no tiene cuenta.');
    return account;
  }

  /** Creates a space for an owner, billed to the owner's account, with the given modules enabled. */
  async createSpace(input: {
    id: string;
    ownerId: string;
    name?: string;
    modules?: string[];
    trialEndsAt?: string;
  }): Promise<void> {
    const check = new InputCheck();
    const badId = spaceIdIssue(input.id);
    if (badId) check.fail('id', badId.msg, badId.type);
    if (!input.ownerId) check.fail('propietario', 'Debe ser un texto no vacío.', 'type_error');
    const name = input.name === undefined ? input.id : check.text('nombre', input.name);
    const modules = [...new Set(input.modules ?? [])];
    modules.forEach((module, i) => {
      if (!this.modules.has(module)) check.fail(['modulos', i], this.unknownModuleText(module), 'enum');
    });
    const trialEndsAt = input.trialEndsAt === undefined ? null : check.date('prueba_hasta', input.trialEndsAt);
    check.done();
    await this.requireOwner(input.ownerId);
    if (await this.store.spaceExists(input.id)) throw apiError('conflict', `El espacio "${input.id}" ya existe.`);
    const account = await this.accountOf(input.ownerId);
    await this.write(
      this.store.createSpace({
        id: input.id,
        name,
        ownerId: input.ownerId,
        accountId: account,
        trialEndsAt,
        modules,
        createdAt: this.iso(),
      }),
    );
  }

  /** Takes a space away from its owner (its keys stop reaching it: 403), or gives it to another owner. */
  async assignSpace(spaceId: string, ownerId: string | null): Promise<void> {
    if (ownerId !== null) await this.requireOwner(ownerId);
    await this.updateSpace(spaceId, { ownerId });
  }

  /** Enables a known module (404 for an unknown space or module id). */
  async enableModule(spaceId: string, module: string): Promise<void> {
    await this.requireSpace(spaceId);
    if (!this.modules.has(module)) throw apiError('not_found', this.unknownModuleText(module));
    await this.write(this.store.enableModule(spaceId, module, this.iso()));
  }

  /**
   * Disables a module. Also a module no longer installed, if the space still lists it (a plugin removed after it
   * was enabled); any other unknown module id is a 404, like an unknown space.
   */
  async disableModule(spaceId: string, module: string): Promise<void> {
    await this.requireSpace(spaceId);
    const removed = await this.write(this.store.disableModule(spaceId, module));
    if (!removed && !this.modules.has(module)) throw apiError('not_found', this.unknownModuleText(module));
  }

  private async updateSpace(spaceId: string, columns: SpaceColumns): Promise<void> {
    if (!(await this.write(this.store.changeSpace(spaceId, columns))))
      throw apiError('not_found', 'Espacio no encontrado.');
  }

  /** End of the trial: a strict ISO 8601 date (422 otherwise), or `null` for none. Returns it as stored (UTC). */
  async setTrialEnd(spaceId: string, isoDate: string | null): Promise<string | null> {
    const check = new InputCheck();
    const date = check.date('prueba_hasta', isoDate);
    check.done();
    await this.updateSpace(spaceId, { trialEndsAt: date });
    return date;
  }

  /**
   * Several changes to one space, all or none (`PATCH /api/admin/espacios/{id}`): every check runs first (an
   * unknown space, then an unknown owner: 404; a bad date: 422), then one write. Returns what was stored.
   */
  async changeSpace(spaceId: string, changes: SpaceChanges): Promise<SpaceChanges> {
    if (changes.ownerId === '') {
      const check = new InputCheck();
      check.fail('propietario', 'Debe ser un texto no vacío o null.', 'type_error');
      check.done();
    }
    await this.requireSpace(spaceId);
    if (changes.ownerId) await this.requireOwner(changes.ownerId);
    const stored: SpaceChanges = {};
    if (changes.ownerId !== undefined) stored.ownerId = changes.ownerId;
    if (changes.trialEndsAt !== undefined) {
      const check = new InputCheck();
      stored.trialEndsAt = check.date('prueba_hasta', changes.trialEndsAt);
      check.done();
    }
    if (changes.apiEnabled !== undefined) stored.apiEnabled = changes.apiEnabled;
    if (changes.ownerReadOnly !== undefined) stored.ownerReadOnly = changes.ownerReadOnly;
    await this.updateSpace(spaceId, stored);
    return stored;
  }

  async setApiEnabled(spaceId: string, enabled: boolean): Promise<void> {
    await this.updateSpace(spaceId, { apiEnabled: enabled });
  }

  async setOwnerReadOnlyOnSpace(spaceId: string, readOnly: boolean): Promise<void> {
    await this.updateSpace(spaceId, { ownerReadOnly: readOnly });
  }

  async setOwnerReadOnly(ownerId: string, readOnly: boolean): Promise<void> {
    if (!(await this.write(this.store.setOwnerReadOnly(ownerId, readOnly))))
      throw apiError('not_found', 'Propietario no encontrado.');
  }

  /** Sets the whole payment state (what is not given is cleared: `{}` marks the account paid and not suspended). */
  setPayment(accountId: string, state: { unpaidSince?: string | null; suspended?: boolean }): Promise<PaymentState> {
    return this.patchPayment(accountId, {
      unpaidSince: state.unpaidSince ?? null,
      suspended: state.suspended === true,
    });
  }

  /** A partial update of the payment state (`PATCH /admin/cuentas/{cuenta}`): a field left undefined keeps its value. */
  async patchPayment(
    accountId: string,
    patch: { unpaidSince?: string | null; suspended?: boolean },
  ): Promise<PaymentState> {
    const check = new InputCheck();
    const unpaidSince = patch.unpaidSince === undefined ? undefined : check.date('impagada_desde', patch.unpaidSince);
    check.done();
    const stored = await this.write(this.store.patchPayment(accountId, { unpaidSince, suspended: patch.suspended }));
    if (!stored) throw apiError('not_found', 'Cuenta no encontrada.');
    return stored;
  }

  /**
   * The account's own storage quota (`PATCH /admin/cuentas/{cuenta}/cuota`, `cerebro admin account quota`): a field
   * left undefined keeps its value, null returns it to the configured default, 0 means no limit.
   */
  async setQuota(
    accountId: string,
    patch: { bytes?: number | null; documents?: number | null },
  ): Promise<{ bytes: number | null; documents: number | null }> {
    const check = new InputCheck();
    const valid = (field: string, v: number | null | undefined) => {
      if (v !== undefined && v !== null && !(Number.isSafeInteger(v) && v >= 0))
        check.fail(
          field,
          'Debe ser un entero ≥ 0 (0: sin límite) o null (el valor por defecto).',
          'greater_than_equal',
        );
    };
    valid('max_bytes', patch.bytes);
    valid('max_documentos', patch.documents);
    check.done();
    const stored = await this.write(this.store.patchQuota(accountId, patch));
    if (!stored) throw apiError('not_found', 'Cuenta no encontrada.');
    return stored;
  }

  async addCredits(accountId: string, amount: number): Promise<number> {
    if (!Number.isSafeInteger(amount) || amount === 0) {
      throw validationError([
        {
          loc: ['body', 'cantidad'],
          msg: 'La cantidad de créditos debe ser un entero distinto de cero.',
          type: 'value_error',
        },
      ]);
    }
    await this.requireAccount(accountId);
    if (amount > 0) return this.credits.credit(accountId, amount, 'recarga');
    return this.credits.debit(accountId, -amount, { spaceId: null, route: null, requestId: null }, 'ajuste');
  }

  /** Issues a service key for an owner without the caller checks of `/tokens` (operator action). */
  async issueKey(
    ownerId: string,
    name: string,
    spaces: string[],
    permission: Permission,
    createdByKey: string | null = null,
    limits: LimitPair = NO_LIMITS,
  ): Promise<CreatedKey> {
    const check = new InputCheck();
    const trimmed = check.text('nombre', name, 80);
    if (permission !== 'lee' && permission !== 'escribe') check.fail('permiso', 'Debe ser "lee" o "escribe".', 'enum');
    check.keyLimit('limite_por_minuto', limits.perMinute);
    check.keyLimit('cuota_diaria', limits.daily);
    check.done();
    await this.requireOwner(ownerId);
    return this.keys.issue(ownerId, trimmed, spaces, permission, createdByKey, limits);
  }

  /** Changes any key's own limits (`undefined` keeps one, null removes it). 404 unknown, 409 revoked. */
  async setKeyLimits(
    keyId: string,
    patch: { perMinute?: number | null; daily?: number | null },
  ): Promise<{ clave: string; limite_por_minuto: number | null; cuota_diaria: number | null }> {
    const check = new InputCheck();
    check.keyLimit('limite_por_minuto', patch.perMinute);
    check.keyLimit('cuota_diaria', patch.daily);
    check.done();
    const row = KEY_ID.test(keyId) ? await this.directory.key(keyId) : undefined;
    if (!row) throw apiError('key_not_found');
    if (row.revoked_at) throw apiError('key_already_revoked');
    const perMinute = patch.perMinute === undefined ? row.rate_limit : patch.perMinute;
    const daily = patch.daily === undefined ? row.daily_quota : patch.daily;
    await this.write(this.keyStore.setKeyLimits(keyId, perMinute, daily));
    return { clave: keyId, limite_por_minuto: perMinute, cuota_diaria: daily };
  }

  /** A console (Studio) session credential for an owner. */
  async issueConsoleSession(ownerId: string): Promise<{ id: string; token: string; expira: string }> {
    await this.requireOwner(ownerId);
    return this.sessions.issue(ownerId, 'operador');
  }

  /** Sets the email an owner signs in to Studio with (unique, case-insensitive). */
  async setOwnerEmail(ownerId: string, email: unknown): Promise<{ id: string; email: string }> {
    return { id: ownerId, email: await this.logins.setEmail(ownerId, email) };
  }

  /**
   * Resets an owner's Studio password (a strong one is generated and returned once when none is given) and ends
   * every console session of theirs.
   */
  setOwnerPassword(ownerId: string, password?: unknown): Promise<{ clave?: string; sesiones_cerradas: number }> {
    return this.logins.setPassword(ownerId, password, null);
  }

  /** A one-time Studio sign-in link for an owner, valid 30 minutes; `origin` is the service's public address. */
  async issueSignInLink(ownerId: string, origin: string): Promise<{ enlace: string; expira: string }> {
    const { token, expira } = await this.links.issue(ownerId);
    return { enlace: `${origin}/studio/entrar?token=${token}`, expira };
  }

  /** A platform operator credential for the `/api/admin` routes. */
  async issueOperatorCredential(name: string): Promise<{ id: string; token: string }> {
    const check = new InputCheck();
    name = check.text('nombre', name);
    check.done();
    const credential = issueCredential('operator');
    await this.write(
      this.store.insertOperatorCredential({
        id: credential.id,
        name,
        digest: credential.digest,
        createdAt: this.iso(),
      }),
    );
    return { id: credential.id, token: credential.token };
  }

  /** Whether `token` is an operator credential this database issued (revoked or not). */
  async operatorCredentialIssued(token: string): Promise<boolean> {
    const parsed = parseCredential(token);
    if (parsed?.kind !== 'operator') return false;
    return secretMatches(parsed.secret, (await this.keyStore.operator(parsed.id))?.secret_digest);
  }

  /** Paging values from the query string or the CLI (422 with `loc: ["query", ...]` out of range). */
  private page(input: { limite?: unknown; desde?: unknown }): { limite: number; desde: number } {
    const check = new InputCheck('query');
    const limit = check.integer('limite', input.limite, 1, MAX_PAGE, DEFAULT_PAGE);
    const offset = check.integer('desde', input.desde, 0, MAX_OFFSET, 0);
    check.done();
    return { limite: limit, desde: offset };
  }

  async listOwners(paging: { limite?: unknown; desde?: unknown } = {}): Promise<AdminPage<'propietarios', OwnerView>> {
    const page = this.page(paging);
    const { total, items } = await this.views.owners(page.limite, page.desde);
    return { propietarios: items, total, ...page };
  }

  async owner(id: string): Promise<OwnerView> {
    const owner = await this.views.owner(id);
    if (!owner) throw apiError('not_found', 'Propietario no encontrado.');
    return owner;
  }

  /** Every space, or (with `ownerId`) those of one existing owner. */
  async listSpaces(
    paging: { limite?: unknown; desde?: unknown } = {},
    ownerId?: string,
  ): Promise<AdminPage<'espacios', SpaceView>> {
    const page = this.page(paging);
    if (ownerId !== undefined) await this.requireOwner(ownerId);
    const { total, items } = await this.views.spaces(page.limite, page.desde, ownerId);
    return { espacios: items, total, ...page };
  }

  async space(id: string): Promise<SpaceView> {
    const space = await this.views.space(id);
    if (!space) throw apiError('not_found', 'Espacio no encontrado.');
    return space;
  }

  /** An owner's keys, revoked ones included (with the date), never a secret. */
  async listKeys(
    ownerId: string,
    paging: { limite?: unknown; desde?: unknown } = {},
  ): Promise<AdminPage<'claves', AdminKeyView>> {
    const page = this.page(paging);
    await this.requireOwner(ownerId);
    const { total, items } = await this.views.keys(ownerId, page.limite, page.desde);
    return { claves: items, total, ...page };
  }

  /** Revokes any owner's key: it answers 401 from the next request. 404 unknown, 409 already revoked. */
  async revokeKey(keyId: string): Promise<{ revocado: string }> {
    const state = KEY_ID.test(keyId) ? await this.views.keyState(keyId) : undefined;
    if (!state) throw apiError('key_not_found');
    if (state.revoked) throw apiError('key_already_revoked');
    await this.write(this.keyStore.revokeKey(keyId, this.iso()));
    return { revocado: keyId };
  }

  isEmpty(): Promise<boolean> {
    return this.store.isEmpty();
  }
}
