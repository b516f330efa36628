// The rows and records of owners, keys, spaces and accounts that access decisions read: plain data, shared by the
// directory, its interface and its readers without importing the directory itself.
import type { Permission } from '@cerebro/sdk';
import type { ApiSettings } from './api-settings.js';

export interface OwnerRow {
  id: string;
  name: string;
  email: string | null;
  read_only: number;
  deleted_at: string | null;
}
export interface KeyRow {
  id: string;
  owner_id: string;
  name: string;
  spaces: string;
  permission: Permission;
  secret_digest: Buffer;
  created_at: string;
  revoked_at: string | null;
  calls: number;
  calls_by_route: string;
  last_used_at: string | null;
  rate_limit: number | null;
  daily_quota: number | null;
}
/** A key's credential and its owner's state, read in one query on every key request. */
export interface KeyCredentialRow {
  id: string;
  owner_id: string;
  name: string;
  spaces: string;
  permission: Permission;
  secret_digest: Buffer;
  revoked_at: string | null;
  rate_limit: number | null;
  daily_quota: number | null;
  owner_read_only: number;
  owner_deleted_at: string | null;
}

/** A key credential with its space list already parsed (memoised as such). */
export type KeyCredential = Omit<KeyCredentialRow, 'spaces'> & { spaces: readonly string[] };
export interface CredentialRow {
  id: string;
  owner_id?: string;
  secret_digest: Buffer;
  revoked_at: string | null;
}
export interface SpaceRow {
  id: string;
  name: string;
  owner_id: string | null;
  account_id: string;
  trial_ends_at: string | null;
  owner_read_only: number;
  api_enabled: number;
  api_settings: string;
  created_at: string;
}
export interface AccountRow {
  id: string;
  owner_id: string;
  credits: number;
  unpaid_since: string | null;
  suspended: number;
  created_at: string;
}

/**
 * What access decisions read of an account: whether it is suspended or unpaid. Memoised (never its balance, which
 * every debit moves: that is read afresh from `AccountRow`).
 */
export type AccountStanding = Pick<AccountRow, 'id' | 'unpaid_since' | 'suspended'>;

/** A space with what every request needs to decide access. */
export interface SpaceRecord {
  row: SpaceRow;
  modules: string[];
  settings: ApiSettings;
}
