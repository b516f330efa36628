// The operator's actions as an interface, which the host's `Admin` token is typed by: the CLI, the `/api/admin`
// routes, the first-run bootstrap and the testing kit depend on this shape, not on the class that implements it.
import type { CreatedKey, KeyIssuer } from '../access/access-services.js';
import type { AdminKeyView, OwnerView, SpaceView } from './admin-views.js';

/** Changes to a space; `undefined` leaves a setting as it is, `null` clears the owner or the trial end. */
export interface SpaceChanges {
  ownerId?: string | null;
  trialEndsAt?: string | null;
  apiEnabled?: boolean;
  ownerReadOnly?: boolean;
}

/** One page of an operator listing, as answered by HTTP and printed by the CLI. */
export type AdminPage<K extends string, T> = { total: number; limite: number; desde: number } & Record<K, T[]>;

/** Paging values from the query string or the CLI (422 with `loc: ["query", ...]` out of range). */
export interface AdminPaging {
  limite?: unknown;
  desde?: unknown;
}

/** An account's payment state: paid, unpaid since a date, or suspended. */
export interface PaymentState {
  unpaidSince: string | null;
  suspended: boolean;
}

/** The module ids an operator may enable on a space (`api` and every plugin the host loads). */
export interface ModuleCatalog {
  declare(ids: Iterable<string>): void;
  has(id: string): boolean;
  list(): string[];
}

/** Operator actions on owners, spaces, accounts and credentials, with the same rules on every path. */
export interface AdminActions {
  /** Creates an owner user and their billing account (`cuenta`), topped up with `credits` through the ledger. */
  createOwner(input: {
    name: string;
    email?: string;
    id?: string;
    credits?: number;
  }): Promise<{ id: string; cuenta: string }>;
  /** Deletes an owner: their keys and sessions stop working at once (401). Spaces keep their data, unowned. */
  deleteOwner(id: string): Promise<void>;
  accountOf(ownerId: string): Promise<string>;
  /** Creates a space for an owner, billed to the owner's account, with the given modules enabled. */
  createSpace(input: {
    id: string;
    ownerId: string;
    name?: string;
    modules?: string[];
    trialEndsAt?: string;
  }): Promise<void>;
  /** Takes a space away from its owner (its keys stop reaching it: 403), or gives it to another owner. */
  assignSpace(spaceId: string, ownerId: string | null): Promise<void>;
  /** Enables a known module (404 for an unknown space or module id). */
  enableModule(spaceId: string, module: string): Promise<void>;
  /** Disables a module, also one no longer installed that the space still lists. */
  disableModule(spaceId: string, module: string): Promise<void>;
  /** End of the trial: a strict ISO 8601 date (422 otherwise), or `null` for none. Returns it as stored (UTC). */
  setTrialEnd(spaceId: string, isoDate: string | null): Promise<string | null>;
  /** Several changes to one space, all or none (`PATCH /api/admin/espacios/{id}`). Returns what was stored. */
  changeSpace(spaceId: string, changes: SpaceChanges): Promise<SpaceChanges>;
  setApiEnabled(spaceId: string, enabled: boolean): Promise<void>;
  setOwnerReadOnlyOnSpace(spaceId: string, readOnly: boolean): Promise<void>;
  setOwnerReadOnly(ownerId: string, readOnly: boolean): Promise<void>;
  /** Sets the whole payment state (what is not given is cleared: `{}` marks the account paid and not suspended). */
  setPayment(accountId: string, state: { unpaidSince?: string | null; suspended?: boolean }): Promise<PaymentState>;
  /** A partial update of the payment state: a field left undefined keeps its value. */
  patchPayment(accountId: string, patch: { unpaidSince?: string | null; suspended?: boolean }): Promise<PaymentState>;
  /** The account's own storage quota: undefined keeps a value, null returns it to the default, 0 means no limit. */
  setQuota(
    accountId: string,
    patch: { bytes?: number | null; documents?: number | null },
  ): Promise<{ bytes: number | null; documents: number | null }>;
  /** A top-up (positive) or an adjustment (negative, never below zero: 402) of an account's credit pool. */
  addCredits(accountId: string, amount: number): Promise<number>;
  /** Issues a service key for an owner without the caller checks of `/tokens` (operator action). */
  issueKey(...key: Parameters<KeyIssuer['issue']>): Promise<CreatedKey>;
  /** Changes any key's own limits (`undefined` keeps one, null removes it). 404 unknown, 409 revoked. */
  setKeyLimits(
    keyId: string,
    patch: { perMinute?: number | null; daily?: number | null },
  ): Promise<{ clave: string; limite_por_minuto: number | null; cuota_diaria: number | null }>;
  /** A console (Studio) session credential for an owner. */
  issueConsoleSession(ownerId: string): Promise<{ id: string; token: string; expira: string }>;
  /** Sets the email an owner signs in to Studio with (unique, case-insensitive). */
  setOwnerEmail(ownerId: string, email: unknown): Promise<{ id: string; email: string }>;
  /** Resets an owner's Studio password (generated when none is given) and ends every console session of theirs. */
  setOwnerPassword(ownerId: string, password?: unknown): Promise<{ clave?: string; sesiones_cerradas: number }>;
  /** A one-time Studio sign-in link for an owner; `origin` is the service's public address. */
  issueSignInLink(ownerId: string, origin: string): Promise<{ enlace: string; expira: string }>;
  /** A platform operator credential for the `/api/admin` routes. */
  issueOperatorCredential(name: string): Promise<{ id: string; token: string }>;
  /** Whether `token` is an operator credential this database issued (revoked or not). */
  operatorCredentialIssued(token: string): Promise<boolean>;
  listOwners(paging?: AdminPaging): Promise<AdminPage<'propietarios', OwnerView>>;
  owner(id: string): Promise<OwnerView>;
  /** Every space, or (with `ownerId`) those of one existing owner. */
  listSpaces(paging?: AdminPaging, ownerId?: string): Promise<AdminPage<'espacios', SpaceView>>;
  space(id: string): Promise<SpaceView>;
  /** An owner's keys, revoked ones included (with the date), never a secret. */
  listKeys(ownerId: string, paging?: AdminPaging): Promise<AdminPage<'claves', AdminKeyView>>;
  /** Revokes any owner's key: it answers 401 from the next request. 404 unknown, 409 already revoked. */
  revokeKey(keyId: string): Promise<{ revocado: string }>;
  isEmpty(): Promise<boolean>;
}
