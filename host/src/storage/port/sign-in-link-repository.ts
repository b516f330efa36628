import { createToken } from '@cerebro/sdk';

/** A one-time sign-in link as stored: only the digest of its secret. */
export interface SignInLinkRecord {
  id: string;
  ownerId: string;
  secretDigest: Buffer;
  /** ISO times. */
  createdAt: string;
  expiresAt: string;
}

/**
 * One-time sign-in links the operator hands to an owner.
 *
 * Guarantees: `use` is one atomic conditional update, so of two uses of the same link at once exactly one succeeds.
 */
export interface SignInLinkRepository {
  /** Stores a new link, first dropping every link that expired before `pruneBefore` (ISO time). */
  insert(link: SignInLinkRecord, pruneBefore: string): Promise<void>;
  find(id: string): Promise<{ ownerId: string; secretDigest: Buffer } | undefined>;
  /** Marks the link used at `now` (ISO) if it is unused and unexpired then; false otherwise. */
  use(id: string, now: string): Promise<boolean>;
  /** Whether the owner exists and is not deleted. */
  ownerActive(ownerId: string): Promise<boolean>;
}

export const SignInLinkRepositoryToken = createToken<SignInLinkRepository>('host:sign-in-link-repository');
