import { createToken, type Permission } from '@cerebro/sdk';
import type { AccountRow, CredentialRow, KeyCredentialRow, KeyRow, SpaceRow } from '../../access/records.js';

/** A space row with its enabled modules (read together: one round trip instead of two per request). */
export interface SpaceWithModules {
  row: SpaceRow;
  /** Sorted module ids. */
  modules: string[];
}

/** An API key as it is issued: only the digest of its secret is stored. */
export interface NewKeyRecord {
  id: string;
  ownerId: string;
  name: string;
  spaces: readonly string[];
  permission: Permission;
  secretDigest: Buffer;
  createdByKey: string | null;
  /** ISO time. */
  createdAt: string;
  /** The key's own per-minute limit and daily quota (null: only its spaces' apply). */
  rateLimit: number | null;
  dailyQuota: number | null;
}

/**
 * Owners, accounts, spaces (with their modules), API keys and operator credentials: what access decisions read, and
 * the writes of the access services. No caching here (the access directory memoises on top, invalidated through the
 * `directorio` change version): every read sees every write resolved before it, from any process.
 *
 * Guarantees: each method is one statement, so each write is atomic on its own.
 */
export interface DirectoryRepository {
  key(id: string): Promise<KeyRow | undefined>;
  /** A key with its owner's read-only flag and deletion time, in one read (every key request asks). */
  keyCredential(id: string): Promise<KeyCredentialRow | undefined>;
  operator(id: string): Promise<CredentialRow | undefined>;
  account(id: string): Promise<AccountRow | undefined>;
  space(id: string): Promise<SpaceWithModules | undefined>;
  /** The owner's spaces, by id. */
  ownerSpaces(ownerId: string): Promise<SpaceWithModules[]>;
  /** The owner's keys, oldest first (then by id). */
  ownerKeys(ownerId: string): Promise<KeyRow[]>;
  insertKey(key: NewKeyRecord): Promise<void>;
  /** Sets a key's own limits (null: none). */
  setKeyLimits(id: string, rateLimit: number | null, dailyQuota: number | null): Promise<void>;
  /** Revokes the key at `at` (ISO) unless it already was; false when it was (or does not exist). */
  revokeKey(id: string, at: string): Promise<boolean>;
  /** A space's API switch and its settings (the JSON text of `ApiSettings`). */
  setSpaceApi(spaceId: string, settingsJson: string, enabled: boolean): Promise<void>;
}

export const DirectoryRepositoryToken = createToken<DirectoryRepository>('host:directory-repository');
