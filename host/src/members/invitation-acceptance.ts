import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import type { AccessDirectory } from '../access/access-services.js';
import { secretMatches } from '../access/credentials.js';
import { HostTokens } from '../kernel/tokens.js';
import {
  type InvitationRecord,
  type Invitee,
  type MemberRepository,
  MemberRepositoryToken,
} from '../storage/port/member-repository.js';
import { passwordIssue, throwIssues } from '../studio/owner-credentials.js';
import { hashPassword } from '../studio/password-digest.js';
import type { SignIn } from '../studio/studio-services.js';
import { parseInvitationToken } from './invitation-token.js';
import type { AcceptedInvitation, InvitationPreview, Invitations } from './member-services.js';

const NAME_MAX = 120;

/**
 * The public side of an invitation link. Reading it spends nothing (a mail scanner that opens the page leaves it
 * working); accepting it spends it in the repository's conditional update, so it works once. The link proves only
 * that whoever holds it was handed it, not that they own the email: so for an email that is already a member's,
 * accepting asks for that member's current password (throttled like a sign-in) and never replaces it.
 */
@injectable()
export class InvitationLinks implements Invitations {
  constructor(
    @inject(MemberRepositoryToken) private readonly repo: MemberRepository,
    @inject(HostTokens.SignIn) private readonly signIn: SignIn,
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
    @inject(HostTokens.Clock) private readonly clock: Clock,
  ) {}

  async preview(token: string): Promise<InvitationPreview> {
    const invitation = await this.pending(token);
    const record = await this.directory.space(invitation.spaceId);
    if (!record?.row.owner_id) throw apiError('invitation_invalid');
    return {
      email: invitation.email,
      rol: invitation.role,
      espacio: { id: record.row.id, nombre: record.row.name },
      expira: invitation.expiresAt,
      cuenta_existente: (await this.repo.byEmail(invitation.email)) !== undefined,
    };
  }

  async accept(token: string, answer: { nombre?: string; clave: string }, ip: string): Promise<AcceptedInvitation> {
    const invitation = await this.pending(token);
    const record = await this.directory.space(invitation.spaceId);
    if (!record?.row.owner_id) throw apiError('invitation_invalid');
    const existing = await this.repo.byEmail(invitation.email);
    let invitee: Invitee;
    if (existing) {
      await this.signIn.verifyMember(existing.id, answer.clave, ip);
      invitee = { existingId: existing.id };
    } else {
      const name = answer.nombre?.trim() ?? '';
      throwIssues([
        name === '' || name.length > NAME_MAX
          ? { loc: ['body', 'nombre'], msg: `Escribe tu nombre (hasta ${NAME_MAX} caracteres).`, type: 'missing' }
          : null,
        passwordIssue('clave', answer.clave),
      ]);
      invitee = {
        newMember: {
          id: `mem_${randomBytes(8).toString('hex')}`,
          email: invitation.email,
          name,
          passwordDigest: await hashPassword(answer.clave),
        },
      };
    }
    const memberId = await this.repo.accept(invitation.id, new Date(this.clock.now()).toISOString(), invitee);
    if (!memberId) throw apiError('invitation_invalid');
    return {
      memberId,
      email: invitation.email,
      spaceId: invitation.spaceId,
      ownerId: record.row.owner_id,
      role: invitation.role,
    };
  }

  /** The invitation a token names if it still works, else 410 (the same answer whatever was wrong). */
  private async pending(token: string): Promise<InvitationRecord> {
    const parts = parseInvitationToken(token);
    const invitation = parts ? await this.repo.invitation(parts.id) : undefined;
    const valid = secretMatches(parts?.secret ?? 'x'.repeat(43), invitation?.secretDigest);
    const now = new Date(this.clock.now()).toISOString();
    if (!invitation || !valid || invitation.acceptedAt || invitation.revokedAt || invitation.expiresAt <= now)
      throw apiError('invitation_invalid');
    return invitation;
  }
}
