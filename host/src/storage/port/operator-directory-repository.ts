import { createToken } from '@cerebro/sdk';

/** A new owner with their billing account, written together. */
export interface NewOwnerRecord {
  id: string;
  name: string;
  /** Normalised (lower case), or null. */
  email: string | null;
  accountId: string;
  /** ISO time. */
  createdAt: string;
}

/** A new space billed to its owner's account, with the modules enabled on it. */
export interface NewSpaceRecord {
  id: string;
  name: string;
  ownerId: string;
  accountId: string;
  trialEndsAt: string | null;
  modules: readonly string[];
  /** ISO time. */
  createdAt: string;
}

/** Changes to one space; `undefined` leaves a column as it is. */
export interface SpaceColumns {
  ownerId?: string | null;
  trialEndsAt?: string | null;
  apiEnabled?: boolean;
  ownerReadOnly?: boolean;
}

/** An account's payment state as stored. */
export interface AccountPayment {
  unpaidSince: string | null;
  suspended: boolean;
}

/** An account's own storage quota (null: the configured default; 0: no limit). */
export interface AccountQuota {
  bytes: number | null;
  documents: number | null;
}

/**
 * The operator's writes to owners, accounts, spaces, their modules and operator credentials (`/api/admin`,
 * `cerebro admin`, the first-run bootstrap), and the existence checks those actions make. Keys are written through
 * `DirectoryRepository`; the listings are `AdminViewRepository`'s.
 *
 * Guarantees: each method is one transaction; a patch reads and writes in the same one, so two patches of
 * different fields of one account never undo each other. Callers invalidate the access memo after a write.
 */
export interface OperatorDirectoryRepository {
  /** True when an owner has this id, deleted or not (ids are never reused). */
  ownerIdTaken(id: string): Promise<boolean>;
  /** True when a live (not deleted) owner has this id. */
  ownerLive(id: string): Promise<boolean>;
  spaceExists(id: string): Promise<boolean>;
  accountExists(id: string): Promise<boolean>;
  /** The owner's first account (by creation). */
  accountOf(ownerId: string): Promise<string | undefined>;
  /** The owner and their account, both or neither. */
  createOwner(owner: NewOwnerRecord): Promise<void>;
  /** Marks a live owner deleted at `at` and leaves their spaces unowned; false when there was no live owner. */
  deleteOwner(id: string, at: string): Promise<boolean>;
  setOwnerReadOnly(id: string, readOnly: boolean): Promise<boolean>;
  /** The space and its modules, both or neither. */
  createSpace(space: NewSpaceRecord): Promise<void>;
  /** The given columns of one space, all or none; false when the space does not exist. */
  changeSpace(id: string, columns: SpaceColumns): Promise<boolean>;
  /** Enables a module (already enabled: unchanged). */
  enableModule(spaceId: string, module: string, at: string): Promise<void>;
  /** False when the space did not have it. */
  disableModule(spaceId: string, module: string): Promise<boolean>;
  /** Sets the fields given, keeps the others; the state after the write, undefined for an unknown account. */
  patchPayment(accountId: string, patch: Partial<AccountPayment>): Promise<AccountPayment | undefined>;
  /** Same, for the account's own quota. */
  patchQuota(accountId: string, patch: Partial<AccountQuota>): Promise<AccountQuota | undefined>;
  insertOperatorCredential(credential: { id: string; name: string; digest: Buffer; createdAt: string }): Promise<void>;
  /** No owner and no operator credential yet (the first run sets them up). */
  isEmpty(): Promise<boolean>;
}

export const OperatorDirectoryRepositoryToken = createToken<OperatorDirectoryRepository>(
  'host:operator-directory-repository',
);
