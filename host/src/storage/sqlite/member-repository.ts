import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type {
  InvitationRecord,
  Invitee,
  MemberRecord,
  MemberRepository,
  MemberRole,
  MembershipRecord,
  NewInvitation,
  SpaceMemberRecord,
} from '../port/member-repository.js';
import {
  CURRENT_MEMBERSHIP,
  INVITATION_COLUMNS,
  MEMBER_COLUMNS,
  SPACE_MEMBER_COLUMNS,
  type InvitationRow,
  invitationOf,
} from '../shared/member-rows.js';
import { MEMBER_SESSIONS } from '../shared/session-tables.js';
import { prepareRevokeOthers } from './console-session-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

/** Members, roles and invitations in the tables of migration 0019. */
@injectable()
export class SqliteMemberRepository implements MemberRepository {
  private readonly stmts;
  private readonly acceptTx;
  private readonly passwordTx;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.stmts = preparedOnUse({
      byEmail: () =>
        db.prepare<[string], MemberRecord>(
          `SELECT ${MEMBER_COLUMNS} FROM members WHERE email = ? AND deleted_at IS NULL`,
        ),
      byId: () =>
        db.prepare<[string], MemberRecord>(`SELECT ${MEMBER_COLUMNS} FROM members WHERE id = ? AND deleted_at IS NULL`),
      membership: () =>
        db.prepare<[string, string], { role: MemberRole; read_only: number }>(
          `SELECT sm.role, o.read_only FROM memberships sm ${CURRENT_MEMBERSHIP} WHERE sm.member_id = ? AND sm.space_id = ?`,
        ),
      memberships: () =>
        db.prepare<[string], { spaceId: string; role: MemberRole }>(
          `SELECT sm.space_id AS spaceId, sm.role FROM memberships sm ${CURRENT_MEMBERSHIP}
          WHERE sm.member_id = ? ORDER BY sm.space_id`,
        ),
      spaceMembers: () =>
        db.prepare<[string], SpaceMemberRecord>(
          `SELECT ${SPACE_MEMBER_COLUMNS} FROM memberships sm JOIN members m ON m.id = sm.member_id ${CURRENT_MEMBERSHIP}
          WHERE sm.space_id = ? ORDER BY sm.created_at, m.email`,
        ),
      spaceMember: () =>
        db.prepare<[string, string], SpaceMemberRecord>(
          `SELECT ${SPACE_MEMBER_COLUMNS} FROM memberships sm JOIN members m ON m.id = sm.member_id ${CURRENT_MEMBERSHIP}
          WHERE sm.space_id = ? AND sm.member_id = ?`,
        ),
      setRole: () => db.prepare('UPDATE memberships SET role = ? WHERE space_id = ? AND member_id = ?'),
      remove: () => db.prepare('DELETE FROM memberships WHERE space_id = ? AND member_id = ?'),
      insertInvitation: () =>
        db.prepare(
          `INSERT INTO member_invitations (id, space_id, owner_id, email, role, secret_digest, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ),
      invitation: () =>
        db.prepare<[string], InvitationRow>(`SELECT ${INVITATION_COLUMNS} FROM member_invitations WHERE id = ?`),
      pending: () =>
        db.prepare<[string, string], InvitationRow>(
          `SELECT ${INVITATION_COLUMNS} FROM member_invitations
          WHERE space_id = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?
          ORDER BY created_at DESC, id`,
        ),
      revokeInvitation: () =>
        db.prepare(
          `UPDATE member_invitations SET revoked_at = ?
          WHERE id = ? AND space_id = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?`,
        ),
      use: () =>
        db.prepare(
          `UPDATE member_invitations SET accepted_at = ?
          WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?`,
        ),
      insertMember: () =>
        db.prepare('INSERT INTO members (id, email, name, password_digest, created_at) VALUES (?, ?, ?, ?, ?)'),
      join: () =>
        db.prepare(
          `INSERT INTO memberships (space_id, member_id, owner_id, role, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (space_id, member_id) DO UPDATE SET role = excluded.role, owner_id = excluded.owner_id`,
        ),
      setName: () => db.prepare('UPDATE members SET name = ? WHERE id = ? AND deleted_at IS NULL'),
      setPassword: () => db.prepare('UPDATE members SET password_digest = ? WHERE id = ? AND deleted_at IS NULL'),
      revokeOthers: () => prepareRevokeOthers(db, MEMBER_SESSIONS),
    });
    this.passwordTx = db.transaction((memberId: string, digest: string, at: string, keep: string | null) => {
      if (this.stmts.setPassword.run(digest, memberId).changes !== 1) return null;
      return this.stmts.revokeOthers.run(at, memberId, keep ?? '').changes;
    });
    this.acceptTx = db.transaction((invitationId: string, at: string, invitee: Invitee): string | null => {
      if (this.stmts.use.run(at, invitationId, at).changes !== 1) return null;
      const invitation = this.stmts.invitation.get(invitationId)!;
      let memberId: string;
      if ('existingId' in invitee) memberId = invitee.existingId;
      else {
        const m = invitee.newMember;
        this.stmts.insertMember.run(m.id, m.email, m.name, m.passwordDigest, at);
        memberId = m.id;
      }
      this.stmts.join.run(invitation.space_id, memberId, invitation.owner_id, invitation.role, at);
      return memberId;
    });
  }

  async byEmail(email: string): Promise<MemberRecord | undefined> {
    return this.stmts.byEmail.get(email);
  }

  async byId(id: string): Promise<MemberRecord | undefined> {
    return this.stmts.byId.get(id);
  }

  async membership(memberId: string, spaceId: string): Promise<MembershipRecord | undefined> {
    const row = this.stmts.membership.get(memberId, spaceId);
    return row && { role: row.role, ownerReadOnly: row.read_only === 1 };
  }

  async memberships(memberId: string): Promise<{ spaceId: string; role: MemberRole }[]> {
    return this.stmts.memberships.all(memberId);
  }

  async spaceMembers(spaceId: string): Promise<SpaceMemberRecord[]> {
    return this.stmts.spaceMembers.all(spaceId);
  }

  async spaceMember(spaceId: string, memberId: string): Promise<SpaceMemberRecord | undefined> {
    return this.stmts.spaceMember.get(spaceId, memberId);
  }

  async setRole(spaceId: string, memberId: string, role: MemberRole): Promise<boolean> {
    return this.stmts.setRole.run(role, spaceId, memberId).changes === 1;
  }

  async remove(spaceId: string, memberId: string): Promise<boolean> {
    return this.stmts.remove.run(spaceId, memberId).changes === 1;
  }

  async insertInvitation(i: NewInvitation): Promise<void> {
    this.stmts.insertInvitation.run(
      i.id,
      i.spaceId,
      i.ownerId,
      i.email,
      i.role,
      i.secretDigest,
      i.createdAt,
      i.expiresAt,
    );
  }

  async invitation(id: string): Promise<InvitationRecord | undefined> {
    const row = this.stmts.invitation.get(id);
    return row && invitationOf(row);
  }

  async pendingInvitations(spaceId: string, now: string): Promise<InvitationRecord[]> {
    return this.stmts.pending.all(spaceId, now).map(invitationOf);
  }

  async revokeInvitation(id: string, spaceId: string, at: string): Promise<boolean> {
    return this.stmts.revokeInvitation.run(at, id, spaceId, at).changes === 1;
  }

  async accept(invitationId: string, at: string, invitee: Invitee): Promise<string | null> {
    return this.acceptTx.immediate(invitationId, at, invitee);
  }

  async setName(memberId: string, name: string): Promise<boolean> {
    return this.stmts.setName.run(name, memberId).changes === 1;
  }

  async setPassword(memberId: string, digest: string, at: string, keep: string | null): Promise<number | null> {
    return this.passwordTx.immediate(memberId, digest, at, keep);
  }
}
