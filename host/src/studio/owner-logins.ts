import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import type { AccessDirectory } from '../access/access-services.js';
import { HostTokens } from '../kernel/tokens.js';
import { type MemberRepository, MemberRepositoryToken } from '../storage/port/member-repository.js';
import { type OwnerLoginRepository, OwnerLoginRepositoryToken } from '../storage/port/owner-login-repository.js';
import type { LoginRow, OwnerLogins, OwnerProfile } from './studio-services.js';
import { emailIssue, normalizeEmail, passwordIssue, throwIssues } from './owner-credentials.js';
import { hashPassword, passwordMatches } from './password-digest.js';

/**
 * An owner's sign-in data: email (unique, case-insensitive) and password digest. Used by the operator (HTTP and
 * CLI) and by the owner's own profile, so both apply the same rules (`owner-credentials.ts`).
 */
@injectable()
export class OwnerLoginService implements OwnerLogins {
  constructor(
    @inject(OwnerLoginRepositoryToken) private readonly repo: OwnerLoginRepository,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
    @inject(MemberRepositoryToken) private readonly members: MemberRepository,
  ) {}

  byEmail(email: string): Promise<LoginRow | undefined> {
    return this.repo.byEmail(normalizeEmail(email));
  }

  private async require(ownerId: string): Promise<LoginRow> {
    const row = await this.repo.byId(ownerId);
    if (!row) throw apiError('not_found', 'Propietario no encontrado.');
    return row;
  }

  async profile(ownerId: string): Promise<OwnerProfile> {
    const row = await this.require(ownerId);
    return { id: row.id, nombre: row.name, email: row.email, tiene_clave: row.password_digest !== null };
  }

  /** A new email for the owner (422 malformed, 409 another owner's or a member's, 404 no such owner). */
  async setEmail(ownerId: string, email: unknown, field = 'email'): Promise<string> {
    throwIssues([emailIssue(field, email)]);
    await this.require(ownerId);
    const normalized = normalizeEmail(email as string);
    await this.assertEmailFree(normalized, ownerId);
    await this.repo.setEmail(ownerId, normalized);
    await this.directory.invalidate();
    return normalized;
  }

  async assertEmailFree(email: string, ownerId: string | null): Promise<void> {
    const other = await this.repo.byEmail(email);
    if (other && other.id !== ownerId) throw apiError('email_taken');
    // The other direction of `member_email_is_owner` (an invitation to an owner's email is refused).
    if (await this.members.byEmail(email))
      throw apiError('email_taken', 'Ese email ya lo usa un miembro de algún espacio: cada persona entra con el suyo.');
  }

  async setName(ownerId: string, name: string): Promise<void> {
    await this.require(ownerId);
    await this.repo.setName(ownerId, name);
    await this.directory.invalidate();
  }

  /**
   * Sets the owner's password and ends their other sessions (`keep`: the session making the change, if any).
   * Without a password given (`undefined`), a strong one is generated and returned once.
   */
  async setPassword(
    ownerId: string,
    password: unknown,
    keep: string | null,
    field = 'clave',
  ): Promise<{ clave?: string; sesiones_cerradas: number }> {
    const generated = password === undefined ? randomBytes(15).toString('base64url') : undefined;
    const chosen = generated ?? password;
    throwIssues([passwordIssue(field, chosen)]);
    await this.require(ownerId);
    const digest = await hashPassword(chosen as string);
    const closed = await this.repo.setPassword(ownerId, digest, new Date(this.clock.now()).toISOString(), keep);
    await this.directory.invalidate();
    return { ...(generated ? { clave: generated } : {}), sesiones_cerradas: closed };
  }

  /** Whether `password` is the owner's current one (false without a password set). */
  async checkPassword(ownerId: string, password: string): Promise<boolean> {
    return passwordMatches(password, (await this.require(ownerId)).password_digest);
  }
}
