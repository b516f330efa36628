// The access services' interfaces, which the host's tokens are typed by (as the sdk's HostServices are for plugins):
// whoever injects them depends on these shapes, not on the classes that implement them.
import type { SessionWithOwner } from '../studio/studio-services.js';
import type { Permission, SpaceContext } from '@cerebro/sdk';
import type { Caller, ConsoleCaller, KeyManager, MemberCaller, OwnerCaller, SpaceCaller } from './caller.js';
import type { MemberRole } from '../members/member-role.js';
import type { KeyDay, LimitPair } from '../limits/limit-services.js';
import type { KeyLimitsBody } from './key-limits.js';
import type { AccountRow, AccountStanding, CredentialRow, KeyCredential, KeyRow, SpaceRecord } from './records.js';

/**
 * A value, or the promise of it: what a memoised read answers (synchronously on a memo hit, so the hot path of an
 * authenticated request allocates no promise). `await` takes both.
 */
export type ValueOrPromise<T> = T | Promise<T>;

/** Read access to owners, spaces, accounts and credentials, never stale (see `MemoisedAccessDirectory`). */
export interface AccessDirectory {
  key(id: string): Promise<KeyRow | undefined>;
  /**
   * Memoised: synchronous on a hit. `since` (optional on every memoised read): `performance.now()` when the request
   * arrived; a version check started after it serves every read of that request (one database read, not one per
   * read). Without it, the check of the current event-loop turn.
   */
  keyCredential(id: string, since?: number): ValueOrPromise<KeyCredential | undefined>;
  /** Every write to owners, spaces, modules or keys calls this (after the write): every process's memo goes stale. */
  invalidate(): Promise<void>;
  operator(id: string): Promise<CredentialRow | undefined>;
  account(id: string): Promise<AccountRow | undefined>;
  /** Memoised: synchronous on a hit. Payment state only; every write to it invalidates the directory. */
  accountStanding(id: string, since?: number): ValueOrPromise<AccountStanding | undefined>;
  /** Memoised: synchronous on a hit. */
  space(id: string, since?: number): ValueOrPromise<SpaceRecord | undefined>;
  /** Memoised: synchronous on a hit. */
  ownerSpaces(ownerId: string, since?: number): ValueOrPromise<SpaceRecord[]>;
  /**
   * A Studio session with its owner's state, memoised with keys and spaces (`load` reads it on a miss). Whoever
   * revokes a session calls `invalidate()`; the memoised row is the one `touch` updates in place.
   */
  consoleSession(
    id: string,
    load: () => Promise<SessionWithOwner | undefined>,
  ): ValueOrPromise<SessionWithOwner | undefined>;
}

/** Turns the Authorization header (or the Studio session cookie) into a caller, afresh on every request. */
export interface Authenticator {
  /** Synchronous for a key whose credential is memoised. `since`: the request's arrival (`AccessDirectory`). */
  authenticate(header: string | undefined, since?: number): ValueOrPromise<Caller>;
  /**
   * The caller of the Studio session cookie (an owner's or a member's session only); a dead session's 401 clears
   * the cookie.
   */
  authenticateCookie(value: string, secure: boolean): Promise<ConsoleCaller | MemberCaller>;
}

export interface SpaceAccessRequest {
  spaceId: string;
  permission: Permission;
  /** Module the route belongs to; the space must have it enabled. */
  module?: string;
  moduleDisabledDetail?: string;
  /** The least role a member needs on this route (default: `roleNeeded` of the permission). */
  memberRole?: MemberRole;
  ip: string;
  now: number;
  /** `performance.now()` when the request arrived (see `AccessDirectory.keyCredential`). */
  since?: number;
}

export interface SpaceAccess {
  space: SpaceContext;
  record: SpaceRecord;
  permission: Permission;
  /** A member's role on the space (members only). */
  role?: MemberRole;
}

/** Decides whether the caller may use the space for a route, or throws the catalogue error of the first failed check. */
/** A visitor's request to a public route of a module: no caller, only the space's own standing. */
export interface VisitorAccessRequest {
  spaceId: string;
  module: string;
  now: number;
  /** `performance.now()` when the request arrived (see `AccessDirectory.keyCredential`). */
  since?: number;
}

export interface SpaceAccessPolicy {
  authorize(caller: SpaceCaller, request: SpaceAccessRequest): Promise<SpaceAccess>;
  /**
   * Whether anyone may see the space's public pages of `module`: the space exists, its trial has not ended, its
   * account is paid and not suspended, and it has the module. Any failure is the same 404 as an unknown page.
   */
  authorizeVisitor(request: VisitorAccessRequest): Promise<SpaceAccess>;
}

/** A key as issued: the secret (`token`) is in this answer only. */
export interface CreatedKey {
  id: string;
  nombre: string;
  espacios: string[];
  permiso: Permission;
  creado: string;
  limite_por_minuto: number | null;
  cuota_diaria: number | null;
  token: string;
}

/** Issues API keys for an owner (their own `POST /tokens`, or the operator's). */
export interface KeyIssuer {
  /** A new key on the owner's spaces (empty: all of them); 404 when a space is not the owner's. */
  issue(
    ownerId: string,
    name: string,
    spaces: string[],
    permission: Permission,
    createdByKey?: string | null,
    /** The key's own limits (default: none, only the spaces' apply). */
    limits?: LimitPair,
  ): Promise<CreatedKey>;
}

/** A key as listed by `GET /tokens`: never the secret nor its digest. */
export interface KeyListing {
  id: string;
  nombre: string;
  espacios: string[];
  permiso: Permission;
  creado: string;
  limite_por_minuto: number | null;
  cuota_diaria: number | null;
  llamadas: number;
  por_ruta: Record<string, number>;
  ultimo_uso: string | null;
  revocado: boolean;
}

/** A `POST /tokens` body as its route's schema lets it through (types, lengths and unknown fields checked). */
export interface CreateKeyBody extends KeyLimitsBody {
  nombre: string;
  espacios?: string[];
  permiso?: Permission;
}

/** Key management as the contract's section 4.B and 5 define it, for keys and console sessions alike. */
export interface KeyManagement {
  create(caller: KeyManager, body: CreateKeyBody): Promise<CreatedKey>;
  /** The owner's keys within the caller's reach (the same rule as revoking). */
  list(caller: KeyManager): Promise<KeyListing[]>;
  /** One key's usage for the console's chart over the last `days` days; 404 out of the caller's reach. */
  usageOf(caller: KeyManager, keyId: string, days: number): Promise<KeyListing & { por_dia: KeyDay[] }>;
  /**
   * Changes a key's own limits (fields left out keep theirs); the same reach rules as revoking. Returns the key as
   * it is now and its limits as they were.
   */
  setLimits(caller: KeyManager, keyId: string, body: KeyLimitsBody): Promise<{ key: KeyListing; before: LimitPair }>;
  revoke(caller: KeyManager, keyId: string): Promise<{ revocado: string }>;
  /**
   * Spaces the caller reaches right now (for `GET /companies`). `since`: the request's arrival, so the directory's
   * version check that authenticated it serves this read too (`AccessDirectory`).
   */
  reachableSpaces(caller: OwnerCaller, since?: number): ValueOrPromise<SpaceRecord[]>;
}

/** A space's API settings as `GET`/`PATCH /companies/{espacio}/api-config` answer them. */
export interface ApiConfigView {
  api_activa: boolean;
  limite_por_minuto: number | null;
  cuota_diaria: number | null;
  ips_permitidas: string[];
}

/** A PATCH body as the route's schema lets it through: each setting of the right type, and possibly platform fields. */
export type ApiConfigPatch = Partial<ApiConfigView> & { readonly [field: string]: unknown };

/** A space's API switch, per-minute limit, daily quota and IP list: what its owner reads and changes. */
export interface SpaceApiSettings {
  view(record: SpaceRecord): ApiConfigView;
  /** Changes only what the patch sends; a platform field is a 403, a setting out of bounds a 422. */
  update(record: SpaceRecord, patch: ApiConfigPatch): Promise<ApiConfigView>;
}
