import type { Permission } from '@cerebro/sdk';
import type { LimitPair } from '../limits/limit-services.js';

export interface KeyRecord {
  id: string;
  ownerId: string;
  name: string;
  /** Space ids; empty means every space of the owner at the moment of each request. */
  spaces: readonly string[];
  permission: Permission;
  /** The key's own per-minute limit and daily quota (null: only the space's apply). */
  limits: LimitPair;
}

/** Who is calling, recomputed on every request from the credential. */
export type Caller =
  | { kind: 'key'; ownerId: string; key: KeyRecord; ownerReadOnly: boolean }
  | ConsoleCaller
  | MemberCaller
  | { kind: 'operator'; operatorId: string };

export type OwnerCaller = Extract<Caller, { kind: 'key' | 'console' }>;

/** Who may use a space's routes: an owner (key or console session), or a member of the space signed in to Studio. */
export type SpaceCaller = OwnerCaller | MemberCaller;

/**
 * A member signed in to Studio (a `crm_` session, by cookie or Bearer): a person an owner invited into some of
 * their spaces, with a role per space read afresh on every request. Not an owner: no `ownerId` (their spaces may
 * be several owners').
 */
export interface MemberCaller {
  kind: 'member';
  memberId: string;
  sessionId: string;
  /** The session's CSRF token, as a console session's. */
  csrf: string;
  expiresAt: string | null;
}

/** An owner in the Studio console (cookie or `crs_` Bearer credential). */
export interface ConsoleCaller {
  kind: 'console';
  ownerId: string;
  sessionId: string;
  ownerReadOnly: boolean;
  /** The session's CSRF token (derived from its secret), required on state-changing calls made with the cookie. */
  csrf: string;
  /** When the session ends if left idle (null: a session without expiry, issued before Studio existed). */
  expiresAt: string | null;
}

/**
 * An `administra` member managing one owner's keys: the keys stay the owner's, and the member reaches (creates,
 * lists, limits, revokes) only keys limited to spaces of that owner where they are `administra`. Built per request
 * from their current roles (`members/member-keys.ts`).
 */
export interface MemberKeyScope {
  kind: 'member';
  memberId: string;
  ownerId: string;
  ownerReadOnly: boolean;
  /** The owner's spaces where the member is `administra` now (never empty). */
  spaces: readonly string[];
}

/** Who manages keys: an owner (a key or a console session), or an `administra` member within their spaces. */
export type KeyManager = OwnerCaller | MemberKeyScope;
