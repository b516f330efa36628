import { createToken, type Permission } from '@cerebro/sdk';

/** An owner as the operator's listings read it (never a credential), with their first account and their spaces. */
export interface OwnerRecord {
  id: string;
  name: string;
  email: string | null;
  readOnly: boolean;
  createdAt: string;
  account: { id: string; credits: number; unpaidSince: string | null; suspended: boolean } | null;
  /** Ids of the owner's spaces, in id order. */
  spaces: string[];
}

export interface SpaceRecord {
  id: string;
  name: string;
  ownerId: string | null;
  accountId: string;
  trialEndsAt: string | null;
  apiEnabled: boolean;
  ownerReadOnly: boolean;
  createdAt: string;
  /** Enabled modules, in id order. */
  modules: string[];
}

/** A service key as the operator lists it: never its secret. Usage as of the last counter flush. */
export interface KeyRecord {
  id: string;
  name: string;
  spaces: string[];
  permission: Permission;
  createdAt: string;
  calls: number;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** The key's own limits (null: only its spaces'). */
  rateLimit: number | null;
  dailyQuota: number | null;
}

export interface Page<T> {
  total: number;
  items: T[];
}

/**
 * Read-only queries behind the operator's listings, one page at a time in a stable order (creation, then id).
 * Deleted owners are never listed. No transaction needed: a page and its total may see different moments.
 */
export interface AdminViewRepository {
  owners(limit: number, offset: number): Promise<Page<OwnerRecord>>;
  owner(id: string): Promise<OwnerRecord | null>;
  /** Spaces, all or those of one owner. */
  spaces(limit: number, offset: number, ownerId?: string): Promise<Page<SpaceRecord>>;
  space(id: string): Promise<SpaceRecord | null>;
  keys(ownerId: string, limit: number, offset: number): Promise<Page<KeyRecord>>;
  /** Whether a key exists and is revoked; null for an unknown id. */
  keyState(id: string): Promise<{ revoked: boolean } | null>;
}

export const AdminViewRepositoryToken = createToken<AdminViewRepository>('host:admin-view-repository');
