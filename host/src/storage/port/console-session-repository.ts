import { createToken } from '@cerebro/sdk';
import type { SessionOrigin, SessionRow, SessionWithOwner } from '../../studio/studio-services.js';

/** A console session as it is opened (times are ISO strings). */
export interface NewSessionRecord {
  id: string;
  ownerId: string;
  secretDigest: Buffer;
  createdAt: string;
  expiresAt: string;
  maxExpiresAt: string;
  userAgent: string | null;
  ip: string | null;
  origin: SessionOrigin;
}

/**
 * Console (Studio) sessions, the `crs_` credentials. Times are ISO strings, compared as text (they all come from
 * `Date.prototype.toISOString`, so text order is time order).
 *
 * Guarantees: every method is one statement or one transaction; a revocation resolved by any process is seen by
 * every later `find`/`findWithOwner` (no caching here: the authenticator asks on every console request).
 */
export interface ConsoleSessionRepository {
  find(id: string): Promise<SessionRow | undefined>;
  /** The session with its owner's read-only flag and deletion time, in one read. */
  findWithOwner(id: string): Promise<SessionWithOwner | undefined>;
  insert(session: NewSessionRecord): Promise<void>;
  /** Records a use and the idle expiry it pushes forward, unless the session was revoked. */
  touch(id: string, lastSeenAt: string, expiresAt: string): Promise<void>;
  /** The owner's unrevoked sessions whose idle expiry is after `now`, newest first. */
  active(ownerId: string, now: string): Promise<SessionRow[]>;
  /** Revokes one of the owner's sessions at `at`; false when it is not theirs or already revoked. */
  revoke(id: string, ownerId: string, at: string): Promise<boolean>;
  /** Revokes every open session of the owner but `keep` (all of them when null); how many were revoked. */
  revokeOthers(ownerId: string, keep: string | null, at: string): Promise<number>;
  /** Deletes sessions that ended (revoked or expired) before `before`. */
  prune(before: string): Promise<void>;
}

export const ConsoleSessionRepositoryToken = createToken<ConsoleSessionRepository>('host:console-session-repository');

/**
 * Members' Studio sessions (issue #26), the `crm_` credentials: the same repository shape, where the person is a
 * member (`ownerId` of each method is the member's id, `owner_read_only` is always 0).
 */
export const MemberSessionRepositoryToken = createToken<ConsoleSessionRepository>('host:member-session-repository');
