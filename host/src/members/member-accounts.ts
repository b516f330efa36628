import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import type { AccessDirectory } from '../access/access-services.js';
import { HostTokens } from '../kernel/tokens.js';
import { type MemberRepository, MemberRepositoryToken } from '../storage/port/member-repository.js';
import { passwordIssue, throwIssues } from '../studio/owner-credentials.js';
import { hashPassword } from '../studio/password-digest.js';
import type { MemberAccounts } from './member-services.js';

const memberGone = () => apiError('not_found', 'Miembro no encontrado.');

/**
 * A member's own name and password, under the owners' rules (`owner-credentials.ts`, scrypt digests). A new password
 * ends the member's other sessions in the same transaction; the directory is invalidated after it, since it memoises
 * the sessions the pipeline reads.
 */
@injectable()
export class MemberAccountService implements MemberAccounts {
  constructor(
    @inject(MemberRepositoryToken) private readonly repo: MemberRepository,
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
    @inject(HostTokens.Clock) private readonly clock: Clock,
  ) {}

  async setName(memberId: string, name: string): Promise<void> {
    if (!(await this.repo.setName(memberId, name))) throw memberGone();
  }

  async setPassword(memberId: string, password: unknown, keep: string | null, field: string): Promise<number> {
    throwIssues([passwordIssue(field, password)]);
    const digest = await hashPassword(password as string);
    const closed = await this.repo.setPassword(memberId, digest, new Date(this.clock.now()).toISOString(), keep);
    if (closed === null) throw memberGone();
    await this.directory.invalidate();
    return closed;
  }
}
