import { createToken } from '@cerebro/sdk';

/** A member's role in one space: everything (members and keys too), content and settings, or read and ask. */
export type MemberRole = 'administra' | 'edita' | 'consulta';

/** A member as stored (a person invited by an owner; email lower-cased, unique among active members). */
export interface MemberRecord {
  id: string;
  email: string;
  name: string;
  passwordDigest: string;
  createdAt: string;
}

/** One member of a space, as its members page lists them. */
export interface SpaceMemberRecord {
  memberId: string;
  email: string;
  name: string;
  role: MemberRole;
  createdAt: string;
}

/** What the request pipeline reads of a member on a space: their role and whether the space's owner is read-only. */
export interface MembershipRecord {
  role: MemberRole;
  ownerReadOnly: boolean;
}

export interface InvitationRecord {
  id: string;
  spaceId: string;
  /** The space's owner when it was made: the membership it gives counts only while the space is theirs. */
  ownerId: string;
  email: string;
  role: MemberRole;
  secretDigest: Buffer;
  /** ISO times. */
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
  revokedAt: string | null;
}

export type NewInvitation = Omit<InvitationRecord, 'acceptedAt' | 'revokedAt'>;

/** Who accepts an invitation: a member who already exists, or a new one created in the same transaction. */
export type Invitee = { existingId: string } | { newMember: Omit<MemberRecord, 'createdAt'> };

/**
 * Members, their roles per space and their invitations. Emails are compared as given (callers lower-case them);
 * times are ISO strings, compared as text.
 *
 * Guarantees: `accept` is one transaction whose first statement is the conditional update of the invitation, so of
 * two acceptances of one invitation at once exactly one succeeds and the other writes nothing; `membership` reads
 * storage every time (no caching), so a role changed or removed by any process applies to the next request;
 * `setPassword` changes the digest and revokes the member's other sessions in ONE transaction, so no old session
 * outlives a password change, whichever process serves it.
 */
export interface MemberRepository {
  byEmail(email: string): Promise<MemberRecord | undefined>;
  byId(id: string): Promise<MemberRecord | undefined>;
  /**
   * The member's role on the space, undefined when they are not a member of it, or their membership was given by
   * an owner the space no longer has (a space moved to another owner leaves its members behind).
   */
  membership(memberId: string, spaceId: string): Promise<MembershipRecord | undefined>;
  /** Every space the member belongs to (still of the owner who gave it, not deleted), with their role there. */
  memberships(memberId: string): Promise<{ spaceId: string; role: MemberRole }[]>;
  /** The space's members (given by its current owner), oldest first. */
  spaceMembers(spaceId: string): Promise<SpaceMemberRecord[]>;
  spaceMember(spaceId: string, memberId: string): Promise<SpaceMemberRecord | undefined>;
  /** False when the member is not in the space. */
  setRole(spaceId: string, memberId: string, role: MemberRole): Promise<boolean>;
  /** False when the member was not in the space. */
  remove(spaceId: string, memberId: string): Promise<boolean>;
  insertInvitation(invitation: NewInvitation): Promise<void>;
  invitation(id: string): Promise<InvitationRecord | undefined>;
  /** The space's invitations neither accepted, revoked nor expired at `now`, newest first. */
  pendingInvitations(spaceId: string, now: string): Promise<InvitationRecord[]>;
  /** Revokes a pending invitation of the space; false when there is none such. */
  revokeInvitation(id: string, spaceId: string, at: string): Promise<boolean>;
  /**
   * Accepts the invitation at `at` if it is still pending and unexpired, creating the member when new, and gives
   * them the invitation's role on its space (replacing a role they had there). The member's id, or null (nothing
   * written) when the invitation was used, revoked or expired.
   */
  accept(invitationId: string, at: string, invitee: Invitee): Promise<string | null>;
  /** The member's own new name; false when there is no such (live) member. */
  setName(memberId: string, name: string): Promise<boolean>;
  /**
   * Sets the member's password digest (scrypt, as owners') and revokes every open session of theirs but `keep` (all
   * of them when null), at `at` (ISO). How many sessions were revoked; null (nothing written) for no such member.
   */
  setPassword(memberId: string, digest: string, at: string, keep: string | null): Promise<number | null>;
}

export const MemberRepositoryToken = createToken<MemberRepository>('host:member-repository');
