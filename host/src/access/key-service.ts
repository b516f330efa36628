import { inject, injectable } from 'tsyringe';
import { apiError, validationError, type Clock, type Permission, type ValidationIssue } from '@cerebro/sdk';
import { HostTokens } from '../kernel/tokens.js';
import type { KeyDay, LimitPair, UsageCounters } from '../limits/limit-services.js';
import { type DirectoryRepository, DirectoryRepositoryToken } from '../storage/port/directory-repository.js';
import type { KeyManager, OwnerCaller } from './caller.js';
import type {
  AccessDirectory,
  CreatedKey,
  CreateKeyBody,
  KeyIssuer,
  KeyListing,
  KeyManagement,
  ValueOrPromise,
} from './access-services.js';
import type { KeyRow, SpaceRecord } from './records.js';
import { reaches } from './space-access.js';
import { NO_LIMITS, assertWithinCallerLimits, limitFields, limitsOf, type KeyLimitsBody } from './key-limits.js';

/** A read key, or a key or member of a read-only owner, changes no key (a console session's owner: see `create`). */
function assertMayChangeKeys(caller: KeyManager): void {
  if (caller.kind === 'console') return;
  if (caller.ownerReadOnly || (caller.kind === 'key' && caller.key.permission === 'lee')) throw apiError('read_only');
}

const stricter = (a: Permission, b: Permission): Permission => (a === 'lee' || b === 'lee' ? 'lee' : 'escribe');

/**
 * What the schema cannot say about a new key: a name of blanks only, or an empty space id, is a 422 naming the
 * field. Returns the input with its name trimmed and its spaces without repeats.
 */
function checkNewKey(body: CreateKeyBody): { name: string; spaces: string[]; permission?: Permission } {
  const issues: ValidationIssue[] = [];
  const name = body.nombre.trim();
  if (name.length === 0)
    issues.push({ loc: ['body', 'nombre'], msg: 'Debe ser un texto de 1 a 80 caracteres.', type: 'string_length' });
  const spaces = body.espacios ?? [];
  if (spaces.some((id) => !id)) {
    issues.push({
      loc: ['body', 'espacios'],
      msg: 'Debe ser una lista de ids de espacio (vacía: todos tus espacios).',
      type: 'list_type',
    });
  }
  if (issues.length) throw validationError(issues);
  return { name, spaces: [...new Set(spaces)], permission: body.permiso };
}

/** Key management as the contract's section 4.B and 5 define it, for keys and console sessions alike. */
@injectable()
export class KeyService implements KeyManagement {
  constructor(
    @inject(DirectoryRepositoryToken) private readonly repo: DirectoryRepository,
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
    @inject(HostTokens.Usage) private readonly usage: UsageCounters,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(HostTokens.KeyIssuer) private readonly issuer: KeyIssuer,
  ) {}

  async create(caller: KeyManager, body: CreateKeyBody): Promise<CreatedKey> {
    const input = checkNewKey(body);
    const ownerSpaces = await this.directory.ownerSpaces(caller.ownerId);
    const owned = new Set(ownerSpaces.map((s) => s.row.id));
    if (input.spaces.some((id) => !owned.has(id))) throw apiError('spaces_not_owned');

    const targets = input.spaces.length ? ownerSpaces.filter((s) => input.spaces.includes(s.row.id)) : ownerSpaces;
    if (!targets.some((s) => s.modules.includes('api'))) throw apiError('no_api_module');

    let permission: Permission = input.permission ?? 'escribe';
    // A member creates keys limited to spaces they administer: never one reaching every space of the owner.
    if (
      caller.kind === 'member' &&
      (input.spaces.length === 0 || input.spaces.some((id) => !caller.spaces.includes(id)))
    )
      throw apiError(
        'key_scope_exceeded',
        'Un miembro solo crea claves limitadas a espacios en los que su rol es administra: indica cuáles en `espacios`.',
      );
    if (caller.kind === 'key') {
      // A key never creates a key that reaches further or allows more than itself.
      const restricted = caller.key.spaces.length > 0;
      const widens =
        restricted && (input.spaces.length === 0 || input.spaces.some((id) => !caller.key.spaces.includes(id)));
      const elevates = input.permission === 'escribe' && caller.key.permission === 'lee';
      if (widens || elevates) throw apiError('key_scope_exceeded');
      permission = stricter(permission, caller.key.permission);
    }
    if (caller.ownerReadOnly) permission = 'lee';
    const limits = limitsOf(body, NO_LIMITS);
    assertWithinCallerLimits(caller, limits);
    return this.issuer.issue(
      caller.ownerId,
      input.name,
      input.spaces,
      permission,
      caller.kind === 'key' ? caller.key.id : null,
      limits,
    );
  }

  /**
   * The owner's keys that lie within the caller's reach (the same rule as revoking): a key limited to some spaces
   * sees only keys limited to a subset of them, never a key reaching all the owner's spaces (empty list); a key
   * reaching all spaces and a console session see every key of the owner.
   */
  async list(caller: KeyManager): Promise<KeyListing[]> {
    return this.usage.exact(async () => {
      const rows = await this.repo.ownerKeys(caller.ownerId);
      const visible = rows
        .map((row) => ({ row, spaces: JSON.parse(row.spaces) as string[] }))
        .filter(({ spaces }) => this.withinReach(caller, spaces));
      return Promise.all(visible.map(async ({ row, spaces }) => this.listing(row, spaces)));
    });
  }

  /**
   * Changes a key's own limits (fields left out keep theirs). The same reach rules as revoking; a read key or a
   * read-only owner cannot; a key with limits of its own cannot give more than it has (`assertWithinCallerLimits`).
   * From the next request on, every process applies them (the directory's shared change version).
   */
  /** The key with its new limits, and its limits as they were (for the audit log). */
  async setLimits(
    caller: KeyManager,
    keyId: string,
    body: KeyLimitsBody,
  ): Promise<{ key: KeyListing; before: LimitPair }> {
    assertMayChangeKeys(caller);
    const row = await this.reachableKey(caller, keyId);
    if (row.revoked_at) throw apiError('key_already_revoked');
    const before = { perMinute: row.rate_limit, daily: row.daily_quota };
    const limits = limitsOf(body, before);
    assertWithinCallerLimits(caller, limits);
    await this.repo.setKeyLimits(keyId, limits.perMinute, limits.daily);
    await this.directory.invalidate();
    const key = await this.usage.exact(async () =>
      this.listing((await this.repo.key(keyId))!, JSON.parse(row.spaces) as string[]),
    );
    return { key, before };
  }

  /** A key of the caller's owner within the caller's reach, or 404 (as for revoking). */
  private async reachableKey(caller: KeyManager, keyId: string): Promise<KeyRow> {
    const row = /^[0-9a-f]{16}$/.test(keyId) ? await this.directory.key(keyId) : undefined;
    if (!row || row.owner_id !== caller.ownerId || !this.withinReach(caller, JSON.parse(row.spaces) as string[]))
      throw apiError('key_not_found');
    return row;
  }

  private async listing(row: KeyRow, spaces: string[]): Promise<KeyListing> {
    return {
      id: row.id,
      nombre: row.name,
      espacios: spaces,
      permiso: row.permission,
      creado: row.created_at,
      ...limitFields({ perMinute: row.rate_limit, daily: row.daily_quota }),
      ...this.usage.keyUsage(row.id, row),
      revocado: row.revoked_at !== null,
    };
  }

  /**
   * One key's usage for the console's chart: totals per route, last use, and calls per UTC day over the last
   * `days` days. Only for keys within the caller's reach (404 otherwise, as for revoking).
   */
  async usageOf(caller: KeyManager, keyId: string, days: number): Promise<KeyListing & { por_dia: KeyDay[] }> {
    return this.usage.exact(async () => {
      const row = await this.reachableKey(caller, keyId);
      return {
        ...(await this.listing(row, JSON.parse(row.spaces) as string[])),
        por_dia: await this.usage.keyDays(row.id, days, this.clock.now()),
      };
    });
  }

  async revoke(caller: KeyManager, keyId: string): Promise<{ revocado: string }> {
    assertMayChangeKeys(caller);
    const row = /^[0-9a-f]{16}$/.test(keyId) ? await this.directory.key(keyId) : undefined;
    if (!row || row.owner_id !== caller.ownerId || !this.withinReach(caller, JSON.parse(row.spaces) as string[])) {
      throw apiError('key_not_found');
    }
    if (row.revoked_at) throw apiError('key_already_revoked');
    await this.repo.revokeKey(keyId, new Date(this.clock.now()).toISOString());
    await this.directory.invalidate();
    return { revocado: keyId };
  }

  /** A key limited to some spaces, or a member, may only act on keys limited to a subset of theirs. */
  private withinReach(caller: KeyManager, targetSpaces: string[]): boolean {
    if (caller.kind === 'console') return true;
    const reach = caller.kind === 'key' ? caller.key.spaces : caller.spaces;
    if (caller.kind === 'key' && reach.length === 0) return true;
    return targetSpaces.length > 0 && targetSpaces.every((id) => reach.includes(id));
  }

  /** Spaces the caller reaches right now (for `GET /companies`). */
  reachableSpaces(caller: OwnerCaller, since?: number): ValueOrPromise<SpaceRecord[]> {
    const reachable = (spaces: SpaceRecord[]) => spaces.filter((record) => reaches(caller, record));
    const spaces = this.directory.ownerSpaces(caller.ownerId, since);
    return spaces instanceof Promise ? spaces.then(reachable) : reachable(spaces);
  }
}
