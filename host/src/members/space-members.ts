import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import type { AccessDirectory } from '../access/access-services.js';
import type { SpaceRecord } from '../access/records.js';
import { HostTokens } from '../kernel/tokens.js';
import {
  type InvitationRecord,
  type MemberRepository,
  MemberRepositoryToken,
  type SpaceMemberRecord,
} from '../storage/port/member-repository.js';
import type { ConsoleSessions, OwnerLogins } from '../studio/studio-services.js';
import { emailIssue, normalizeEmail, throwIssues } from '../studio/owner-credentials.js';
import { INVITATION_LIFETIME_MS, invitationLink, issueInvitationToken } from './invitation-token.js';
import type { MemberRole } from './member-role.js';
import type { CreatedInvitation, InvitationView, MemberProfile, MemberView, SpaceMembers } from './member-services.js';

const iso = (ms: number) => new Date(ms).toISOString();

export const memberView = (m: SpaceMemberRecord): MemberView => ({
  id: m.memberId,
  email: m.email,
  nombre: m.name,
  rol: m.role,
  desde: m.createdAt,
});

const invitationView = (i: InvitationRecord): InvitationView => ({
  id: i.id,
  email: i.email,
  rol: i.role,
  creada: i.createdAt,
  expira: i.expiresAt,
});

/**
 * The members and invitations of a space. Which caller may call these is the pipeline's decision (the routes
 * need the `administra` role of a member; owners always may). A role change or a removal ends the member's
 * sessions at once; either applies to their next request anyway, since the pipeline reads roles afresh.
 */
@injectable()
export class SpaceMembersService implements SpaceMembers {
  constructor(
    @inject(MemberRepositoryToken) private readonly repo: MemberRepository,
    @inject(HostTokens.MemberSessions) private readonly sessions: ConsoleSessions,
    @inject(HostTokens.Logins) private readonly logins: OwnerLogins,
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
    @inject(HostTokens.Clock) private readonly clock: Clock,
  ) {}

  async list(spaceId: string): Promise<MemberView[]> {
    return (await this.repo.spaceMembers(spaceId)).map(memberView);
  }

  async get(spaceId: string, memberId: string): Promise<MemberView> {
    const member = await this.repo.spaceMember(spaceId, memberId);
    if (!member) throw apiError('member_not_found');
    return memberView(member);
  }

  async invite(spaceId: string, email: string, role: MemberRole, origin: string): Promise<CreatedInvitation> {
    throwIssues([emailIssue('email', email)]);
    const address = normalizeEmail(email);
    if (await this.logins.byEmail(address)) throw apiError('member_email_is_owner');
    const existing = await this.repo.byEmail(address);
    if (existing && (await this.repo.spaceMember(spaceId, existing.id))) throw apiError('member_exists');
    const ownerId = (await this.directory.space(spaceId))?.row.owner_id;
    if (!ownerId) throw apiError('space_not_reachable');
    const { id, token, digest } = issueInvitationToken();
    const now = this.clock.now();
    const invitation = {
      id,
      spaceId,
      ownerId,
      email: address,
      role,
      secretDigest: digest,
      createdAt: iso(now),
      expiresAt: iso(now + INVITATION_LIFETIME_MS),
    };
    await this.repo.insertInvitation(invitation);
    // No mail server is configured in Cerebro yet: the link is answered to be copied and handed over.
    return {
      ...invitationView({ ...invitation, acceptedAt: null, revokedAt: null }),
      enlace: invitationLink(origin, token),
      enviada: false,
    };
  }

  async changeRole(
    spaceId: string,
    memberId: string,
    role: MemberRole,
  ): Promise<MemberView & { sesiones_cerradas: number }> {
    if (!(await this.repo.setRole(spaceId, memberId, role))) throw apiError('member_not_found');
    const closed = await this.sessions.endAll(memberId);
    return { ...(await this.get(spaceId, memberId)), sesiones_cerradas: closed };
  }

  async remove(spaceId: string, memberId: string): Promise<{ sesiones_cerradas: number }> {
    if (!(await this.repo.remove(spaceId, memberId))) throw apiError('member_not_found');
    return { sesiones_cerradas: await this.sessions.endAll(memberId) };
  }

  async pending(spaceId: string): Promise<InvitationView[]> {
    return (await this.repo.pendingInvitations(spaceId, iso(this.clock.now()))).map(invitationView);
  }

  async revokeInvitation(spaceId: string, invitationId: string): Promise<void> {
    if (!(await this.repo.revokeInvitation(invitationId, spaceId, iso(this.clock.now()))))
      throw apiError('invitation_not_found');
  }

  async spacesOf(memberId: string): Promise<{ record: SpaceRecord; role: MemberRole }[]> {
    const found: { record: SpaceRecord; role: MemberRole }[] = [];
    for (const { spaceId, role } of await this.repo.memberships(memberId)) {
      const record = await this.directory.space(spaceId);
      if (record) found.push({ record, role });
    }
    return found;
  }

  async profile(memberId: string): Promise<MemberProfile> {
    const member = await this.repo.byId(memberId);
    if (!member) throw apiError('not_found', 'Miembro no encontrado.');
    return { id: member.id, nombre: member.name, email: member.email, tiene_clave: true };
  }
}
