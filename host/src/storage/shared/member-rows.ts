import type { InvitationRecord, MemberRole } from '../port/member-repository.js';

// The columns of migration 0019's tables as both backends select them (the same names on SQLite and PostgreSQL),
// and the condition that makes a membership count: the space is still of the owner who gave it, not deleted.

/** Joins `memberships sm` to its space `s` and owner `o`, only while the space is still that (live) owner's. */
export const CURRENT_MEMBERSHIP =
  'JOIN spaces s ON s.id = sm.space_id AND s.owner_id = sm.owner_id JOIN owners o ON o.id = sm.owner_id AND o.deleted_at IS NULL';

export const MEMBER_COLUMNS = 'id, email, name, password_digest AS "passwordDigest", created_at AS "createdAt"';
export const SPACE_MEMBER_COLUMNS =
  'sm.member_id AS "memberId", m.email, m.name, sm.role, sm.created_at AS "createdAt"';
export const INVITATION_COLUMNS =
  'id, space_id, owner_id, email, role, secret_digest, created_at, expires_at, accepted_at, revoked_at';

/** A row of `member_invitations`. */
export interface InvitationRow {
  id: string;
  space_id: string;
  owner_id: string;
  email: string;
  role: MemberRole;
  secret_digest: Buffer;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
}

export const invitationOf = (r: InvitationRow): InvitationRecord => ({
  id: r.id,
  spaceId: r.space_id,
  ownerId: r.owner_id,
  email: r.email,
  role: r.role,
  secretDigest: r.secret_digest,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  acceptedAt: r.accepted_at,
  revokedAt: r.revoked_at,
});
