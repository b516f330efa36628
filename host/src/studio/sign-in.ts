import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import { HostTokens } from '../kernel/tokens.js';
import type { OwnerLogins, SignedInPerson, SignIn } from './studio-services.js';
import { type MemberRepository, MemberRepositoryToken } from '../storage/port/member-repository.js';
import { normalizeEmail } from './owner-credentials.js';
import { passwordMatches } from './password-digest.js';
import { SignInThrottle } from './sign-in-throttle.js';
import {
  type SignInFailureRepository,
  SignInFailureRepositoryToken,
} from '../storage/port/sign-in-failure-repository.js';

/**
 * Email and password sign-in, of owners and members alike. A wrong email and a wrong password answer the same 401
 * after the same scrypt work (no user enumeration); failures are limited per email and per IP (429 with
 * `Retry-After`).
 */
@injectable()
export class ThrottledSignIn implements SignIn {
  private readonly throttle: SignInThrottle;

  constructor(
    @inject(HostTokens.Logins) private readonly logins: OwnerLogins,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(SignInFailureRepositoryToken) failures: SignInFailureRepository,
    @inject(MemberRepositoryToken) private readonly members: MemberRepository,
  ) {
    this.throttle = new SignInThrottle(failures);
  }

  /**
   * The person these credentials sign in (an owner, else a member with that email), or a 401 / 429. The same
   * scrypt work whoever it is, or nobody.
   */
  async verify(email: string, password: string, ip: string): Promise<SignedInPerson> {
    const key = normalizeEmail(email);
    const wait = await this.throttle.retryAfter(key, ip, this.clock.now());
    if (wait > 0) throw apiError('sign_in_throttled', undefined, { 'Retry-After': String(wait) });
    const owner = await this.logins.byEmail(key);
    const member = owner ? undefined : await this.members.byEmail(key);
    const matches = await passwordMatches(password, owner ? owner.password_digest : member?.passwordDigest);
    if (!(owner || member) || !matches) {
      await this.throttle.fail(key, ip, this.clock.now());
      throw apiError('invalid_credentials');
    }
    await this.throttle.succeed(key);
    return owner ? { kind: 'propietario', id: owner.id } : { kind: 'miembro', id: member!.id };
  }

  /** A member's current password (accepting an invitation to another space), against the same limits. */
  async verifyMember(memberId: string, password: string, ip: string): Promise<void> {
    const member = await this.members.byId(memberId);
    await this.checked(`miembro:${memberId}`, ip, () => passwordMatches(password, member?.passwordDigest));
  }

  /**
   * The current password of a signed-in owner, before changing their email or password: a stolen session must
   * not be a way to guess it, so failures count against the same limits (keyed by owner).
   */
  async verifyOwner(ownerId: string, password: string, ip: string): Promise<void> {
    await this.checked(`propietario:${ownerId}`, ip, () => this.logins.checkPassword(ownerId, password));
  }

  /** A password check of a known person, counted against the throttle under `key`: 429 / 403 or nothing. */
  private async checked(key: string, ip: string, matches: () => Promise<boolean>): Promise<void> {
    const wait = await this.throttle.retryAfter(key, ip, this.clock.now());
    if (wait > 0) throw apiError('sign_in_throttled', undefined, { 'Retry-After': String(wait) });
    if (!(await matches())) {
      await this.throttle.fail(key, ip, this.clock.now());
      throw apiError('current_password_wrong');
    }
    await this.throttle.succeed(key);
  }
}
