import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import { HostTokens } from '../kernel/tokens.js';
import type { OwnerLogins, SignIn } from './studio-services.js';
import { normalizeEmail } from './owner-credentials.js';
import { passwordMatches } from './password-digest.js';
import { SignInThrottle } from './sign-in-throttle.js';
import {
  type SignInFailureRepository,
  SignInFailureRepositoryToken,
} from '../storage/port/sign-in-failure-repository.js';

/**
 * Email and password sign-in. A wrong email and a wrong password answer the same 401 after the same scrypt work
 * (no user enumeration); failures are limited per email and per IP (429 with `Retry-After`).
 */
@injectable()
export class ThrottledSignIn implements SignIn {
  private readonly throttle: SignInThrottle;

  constructor(
    @inject(HostTokens.Logins) private readonly logins: OwnerLogins,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(SignInFailureRepositoryToken) failures: SignInFailureRepository,
  ) {
    this.throttle = new SignInThrottle(failures);
  }

  /** The owner id these credentials sign in, or a 401 / 429. */
  async verify(email: string, password: string, ip: string): Promise<string> {
    const key = normalizeEmail(email);
    const wait = await this.throttle.retryAfter(key, ip, this.clock.now());
    if (wait > 0) throw apiError('sign_in_throttled', undefined, { 'Retry-After': String(wait) });
    const owner = await this.logins.byEmail(key);
    const matches = await passwordMatches(password, owner?.password_digest);
    if (!owner || !matches) {
      await this.throttle.fail(key, ip, this.clock.now());
      throw apiError('invalid_credentials');
    }
    await this.throttle.succeed(key);
    return owner.id;
  }

  /**
   * The current password of a signed-in owner, before changing their email or password: a stolen session must
   * not be a way to guess it, so failures count against the same limits (keyed by owner).
   */
  async verifyOwner(ownerId: string, password: string, ip: string): Promise<void> {
    const key = `propietario:${ownerId}`;
    const wait = await this.throttle.retryAfter(key, ip, this.clock.now());
    if (wait > 0) throw apiError('sign_in_throttled', undefined, { 'Retry-After': String(wait) });
    if (!(await this.logins.checkPassword(ownerId, password))) {
      await this.throttle.fail(key, ip, this.clock.now());
      throw apiError('current_password_wrong');
    }
    await this.throttle.succeed(key);
  }
}
