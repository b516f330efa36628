import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { apiError, type Clock, type Permission } from '@cerebro/sdk';
import { issueCredential } from '../access/credentials.js';
import type { SqliteDatabase } from '../storage/database.js';
import type { CreditLedger } from '../credits/credit-ledger.js';
import { HostTokens } from '../kernel/tokens.js';
import type { AccessDirectory } from '../access/directory.js';

export interface CreatedKey {
  id: string;
  nombre: string;
  espacios: string[];
  permiso: Permission;
  creado: string;
  token: string;
}

const SPACE_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/**
 * Operator actions on owners, spaces, accounts and credentials. Shared by the CLI, the `/api/admin` routes, the
 * first-run bootstrap and the testing kit, so every path applies the same rules.
 */
@injectable()
export class AdminService {
  constructor(
    @inject(HostTokens.Database) private readonly db: SqliteDatabase,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(HostTokens.Credits) private readonly credits: CreditLedger,
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
  ) {}

  /** Runs a write to owners, spaces, modules or credentials, and tells the access directory its memo is stale. */
  private run(sql: string, ...params: unknown[]): { changes: number } {
    const result = this.db.prepare(sql).run(...params);
    this.directory.invalidate();
    return result;
  }

  private iso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  private ownerExists(id: string): boolean {
    return !!this.db.prepare('SELECT 1 FROM owners WHERE id = ? AND deleted_at IS NULL').get(id);
  }

  /** Creates an owner user and their billing account (`cuenta`). */
  createOwner(input: { name: string; email?: string; id?: string; credits?: number }): { id: string; cuenta: string } {
    if (!input.name?.trim()) throw apiError('validation_failed', 'El nombre del propietario es obligatorio.');
    const id = input.id ?? `own_${randomBytes(6).toString('hex')}`;
    const account = `cta_${randomBytes(6).toString('hex')}`;
    this.db.transaction(() => {
      this.run('INSERT INTO owners (id, name, email, created_at) VALUES (?, ?, ?, ?)', id, input.name.trim(), input.email ?? null, this.iso());
      this.run('INSERT INTO accounts (id, owner_id, created_at) VALUES (?, ?, ?)', account, id, this.iso());
    })();
    if (input.credits) this.credits.credit(account, input.credits, 'recarga');
    return { id, cuenta: account };
  }

  /** Deletes an owner: their keys and sessions stop working at once (401). Spaces keep their data, unowned. */
  deleteOwner(id: string): void {
    const result = this.run('UPDATE owners SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL', this.iso(), id);
    if (result.changes === 0) throw apiError('not_found', 'Propietario no encontrado.');
    this.run('UPDATE spaces SET owner_id = NULL WHERE owner_id = ?', id);
  }

  accountOf(ownerId: string): string {
    const row = this.db.prepare<[string], { id: string }>('SELECT id FROM accounts WHERE owner_id = ? ORDER BY created_at LIMIT 1').get(ownerId);
    if (!row) throw apiError('not_found', 'El propietario no tiene cuenta.');
    return row.id;
  }

  /** Creates a space for an owner, billed to the owner's account, with the given modules enabled. */
  createSpace(input: { id: string; ownerId: string; name?: string; modules?: string[]; trialEndsAt?: string }): void {
    if (!SPACE_ID.test(input.id)) throw apiError('validation_failed', 'El id del espacio debe ser minúsculas, cifras, "-" o "_" (1 a 63).');
    if (!this.ownerExists(input.ownerId)) throw apiError('not_found', 'Propietario no encontrado.');
    if (this.db.prepare('SELECT 1 FROM spaces WHERE id = ?').get(input.id)) throw apiError('conflict', `El espacio "${input.id}" ya existe.`);
    const account = this.accountOf(input.ownerId);
    this.db.transaction(() => {
      this.run('INSERT INTO spaces (id, name, owner_id, account_id, trial_ends_at, created_at) VALUES (?, ?, ?, ?, ?, ?)', input.id, input.name ?? input.id, input.ownerId, account, input.trialEndsAt ?? null, this.iso());
      for (const module of input.modules ?? []) this.enableModule(input.id, module);
    })();
  }

  /** Takes a space away from its owner (its keys stop reaching it: 403), or gives it to another owner. */
  assignSpace(spaceId: string, ownerId: string | null): void {
    if (ownerId && !this.ownerExists(ownerId)) throw apiError('not_found', 'Propietario no encontrado.');
    const result = this.run('UPDATE spaces SET owner_id = ? WHERE id = ?', ownerId, spaceId);
    if (result.changes === 0) throw apiError('not_found', 'Espacio no encontrado.');
  }

  enableModule(spaceId: string, module: string): void {
    if (!/^[a-z][a-z0-9-]{1,31}$/.test(module)) throw apiError('validation_failed', `Nombre de módulo no válido: "${module}".`);
    this.run('INSERT OR IGNORE INTO space_modules (space_id, module, enabled_at) VALUES (?, ?, ?)', spaceId, module, this.iso());
  }

  disableModule(spaceId: string, module: string): void {
    this.run('DELETE FROM space_modules WHERE space_id = ? AND module = ?', spaceId, module);
  }

  private updateSpace(spaceId: string, column: string, value: unknown): void {
    const result = this.run(`UPDATE spaces SET ${column} = ? WHERE id = ?`, value, spaceId);
    if (result.changes === 0) throw apiError('not_found', 'Espacio no encontrado.');
  }

  setTrialEnd(spaceId: string, isoDate: string | null): void { this.updateSpace(spaceId, 'trial_ends_at', isoDate); }
  setApiEnabled(spaceId: string, enabled: boolean): void { this.updateSpace(spaceId, 'api_enabled', enabled ? 1 : 0); }
  setOwnerReadOnlyOnSpace(spaceId: string, readOnly: boolean): void { this.updateSpace(spaceId, 'owner_read_only', readOnly ? 1 : 0); }

  setOwnerReadOnly(ownerId: string, readOnly: boolean): void {
    const result = this.run('UPDATE owners SET read_only = ? WHERE id = ? AND deleted_at IS NULL', readOnly ? 1 : 0, ownerId);
    if (result.changes === 0) throw apiError('not_found', 'Propietario no encontrado.');
  }

  /** Payment state of an account: paid, unpaid since a date, or suspended. */
  setPayment(accountId: string, state: { unpaidSince?: string | null; suspended?: boolean }): void {
    const result = this.run('UPDATE accounts SET unpaid_since = ?, suspended = ? WHERE id = ?', state.unpaidSince ?? null, state.suspended ? 1 : 0, accountId);
    if (result.changes === 0) throw apiError('not_found', 'Cuenta no encontrada.');
  }

  addCredits(accountId: string, amount: number): number {
    if (!Number.isInteger(amount) || amount === 0) throw apiError('validation_failed', 'La cantidad de créditos debe ser un entero distinto de cero.');
    if (amount > 0) return this.credits.credit(accountId, amount, 'recarga');
    return this.credits.debit(accountId, -amount, { spaceId: null, route: null, requestId: null }, 'ajuste');
  }

  /** Issues a service key for an owner without the caller checks of `/tokens` (operator action). */
  issueKey(ownerId: string, nombre: string, espacios: string[], permiso: Permission, createdByKey: string | null = null): CreatedKey {
    const credential = issueCredential('key');
    const creado = this.iso();
    this.run('INSERT INTO api_keys (id, owner_id, name, spaces, permission, secret_digest, created_by_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', credential.id, ownerId, nombre, JSON.stringify(espacios), permiso, credential.digest, createdByKey, creado);
    return { id: credential.id, nombre, espacios, permiso, creado, token: credential.token };
  }

  /** A console (Studio) session credential for an owner. */
  issueConsoleSession(ownerId: string): { id: string; token: string } {
    if (!this.ownerExists(ownerId)) throw apiError('not_found', 'Propietario no encontrado.');
    const credential = issueCredential('console');
    this.run('INSERT INTO console_sessions (id, owner_id, secret_digest, created_at) VALUES (?, ?, ?, ?)', credential.id, ownerId, credential.digest, this.iso());
    return { id: credential.id, token: credential.token };
  }

  /** A platform operator credential for the `/api/admin` routes. */
  issueOperatorCredential(name: string): { id: string; token: string } {
    const credential = issueCredential('operator');
    this.run('INSERT INTO operator_credentials (id, name, secret_digest, created_at) VALUES (?, ?, ?, ?)', credential.id, name, credential.digest, this.iso());
    return { id: credential.id, token: credential.token };
  }

  isEmpty(): boolean {
    return !this.db.prepare('SELECT 1 FROM owners LIMIT 1').get() && !this.db.prepare('SELECT 1 FROM operator_credentials LIMIT 1').get();
  }
}
