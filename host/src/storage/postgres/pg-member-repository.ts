// Members, roles and invitations on PostgreSQL: storage/sqlite/member-repository.ts's statements.
import { inject, injectable } from 'tsyringe';
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
import { revokeOtherSessions } from './pg-console-session-repository.js';
import { inTransaction, pgQuery, type Pool } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

/** ISO times and ids compared by code point, as SQLite does, whatever the database's collation. */
const PENDING = 'accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $TIME COLLATE "C"';

@injectable()
export class PgMemberRepository implements MemberRepository {
  constructor(@inject(PgPoolToken) private readonly pool: Pool) {}

  async byEmail(email: string): Promise<MemberRecord | undefined> {
    const r = await this.pool.query<MemberRecord>(
      `SELECT ${MEMBER_COLUMNS} FROM members WHERE email = $1 AND deleted_at IS NULL`,
      [email],
    );
    return r.rows[0];
  }

  async byId(id: string): Promise<MemberRecord | undefined> {
    const r = await this.pool.query<MemberRecord>(
      `SELECT ${MEMBER_COLUMNS} FROM members WHERE id = $1 AND deleted_at IS NULL`,
      [id],
    );
    return r.rows[0];
  }

  async membership(memberId: string, spaceId: string): Promise<MembershipRecord | undefined> {
    const r = await this.pool.query<{ role: MemberRole; read_only: number }>(
      `SELECT sm.role, o.read_only FROM memberships sm ${CURRENT_MEMBERSHIP} WHERE sm.member_id = $1 AND sm.space_id = $2`,
      [memberId, spaceId],
    );
    const row = r.rows[0];
    return row && { role: row.role, ownerReadOnly: Number(row.read_only) === 1 };
  }

  async memberships(memberId: string): Promise<{ spaceId: string; role: MemberRole }[]> {
    const r = await this.pool.query<{ spaceId: string; role: MemberRole }>(
      `SELECT sm.space_id AS "spaceId", sm.role FROM memberships sm ${CURRENT_MEMBERSHIP}
        WHERE sm.member_id = $1 ORDER BY sm.space_id COLLATE "C"`,
      [memberId],
    );
    return r.rows;
  }

  async spaceMembers(spaceId: string): Promise<SpaceMemberRecord[]> {
    const r = await this.pool.query<SpaceMemberRecord>(
      `SELECT ${SPACE_MEMBER_COLUMNS} FROM memberships sm JOIN members m ON m.id = sm.member_id ${CURRENT_MEMBERSHIP}
        WHERE sm.space_id = $1 ORDER BY sm.created_at COLLATE "C", m.email COLLATE "C"`,
      [spaceId],
    );
    return r.rows;
  }

  async spaceMember(spaceId: string, memberId: string): Promise<SpaceMemberRecord | undefined> {
    const r = await this.pool.query<SpaceMemberRecord>(
      `SELECT ${SPACE_MEMBER_COLUMNS} FROM memberships sm JOIN members m ON m.id = sm.member_id ${CURRENT_MEMBERSHIP}
        WHERE sm.space_id = $1 AND sm.member_id = $2`,
      [spaceId, memberId],
    );
    return r.rows[0];
  }

  async setRole(spaceId: string, memberId: string, role: MemberRole): Promise<boolean> {
    const r = await this.pool.query('UPDATE memberships SET role = $1 WHERE space_id = $2 AND member_id = $3', [
      role,
      spaceId,
      memberId,
    ]);
    return r.rowCount === 1;
  }

  async remove(spaceId: string, memberId: string): Promise<boolean> {
    const r = await this.pool.query('DELETE FROM memberships WHERE space_id = $1 AND member_id = $2', [
      spaceId,
      memberId,
    ]);
    return r.rowCount === 1;
  }

  async insertInvitation(i: NewInvitation): Promise<void> {
    await this.pool.query(
      `INSERT INTO member_invitations (id, space_id, owner_id, email, role, secret_digest, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [i.id, i.spaceId, i.ownerId, i.email, i.role, i.secretDigest, i.createdAt, i.expiresAt],
    );
  }

  async invitation(id: string): Promise<InvitationRecord | undefined> {
    const r = await this.pool.query<InvitationRow>(
      `SELECT ${INVITATION_COLUMNS} FROM member_invitations WHERE id = $1`,
      [id],
    );
    return r.rows[0] && invitationOf(r.rows[0]);
  }

  async pendingInvitations(spaceId: string, now: string): Promise<InvitationRecord[]> {
    const r = await this.pool.query<InvitationRow>(
      `SELECT ${INVITATION_COLUMNS} FROM member_invitations WHERE space_id = $1 AND ${PENDING.replace('$TIME', '$2')}
        ORDER BY created_at COLLATE "C" DESC, id COLLATE "C"`,
      [spaceId, now],
    );
    return r.rows.map(invitationOf);
  }

  async revokeInvitation(id: string, spaceId: string, at: string): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE member_invitations SET revoked_at = $1 WHERE id = $2 AND space_id = $3 AND ${PENDING.replace('$TIME', '$1')}`,
      [at, id, spaceId],
    );
    return r.rowCount === 1;
  }

  accept(invitationId: string, at: string, invitee: Invitee): Promise<string | null> {
    return inTransaction(this.pool, async (client) => {
      const used = await client.query<{ space_id: string; owner_id: string; role: MemberRole }>(
        `UPDATE member_invitations SET accepted_at = $1 WHERE id = $2 AND ${PENDING.replace('$TIME', '$1')}
         RETURNING space_id, owner_id, role`,
        [at, invitationId],
      );
      const invitation = used.rows[0];
      if (!invitation) return null;
      let memberId: string;
      if ('existingId' in invitee) memberId = invitee.existingId;
      else {
        const m = invitee.newMember;
        await client.query(
          'INSERT INTO members (id, email, name, password_digest, created_at) VALUES ($1, $2, $3, $4, $5)',
          [m.id, m.email, m.name, m.passwordDigest, at],
        );
        memberId = m.id;
      }
      await client.query(
        `INSERT INTO memberships (space_id, member_id, owner_id, role, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (space_id, member_id) DO UPDATE SET role = excluded.role, owner_id = excluded.owner_id`,
        [invitation.space_id, memberId, invitation.owner_id, invitation.role, at],
      );
      return memberId;
    });
  }

  async setName(memberId: string, name: string): Promise<boolean> {
    const r = await pgQuery(this.pool, 'UPDATE members SET name = $1 WHERE id = $2 AND deleted_at IS NULL', [
      name,
      memberId,
    ]);
    return r.rowCount === 1;
  }

  setPassword(memberId: string, digest: string, at: string, keep: string | null): Promise<number | null> {
    // One transaction: no old session outlives the change, whichever host serves it next.
    return inTransaction(this.pool, async (client) => {
      const r = await client.query('UPDATE members SET password_digest = $1 WHERE id = $2 AND deleted_at IS NULL', [
        digest,
        memberId,
      ]);
      if (r.rowCount !== 1) return null;
      return revokeOtherSessions(this.pool, memberId, keep, at, MEMBER_SESSIONS);
    });
  }
}
