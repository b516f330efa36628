import type { SignInFailureRepository } from '../storage/port/sign-in-failure-repository.js';

/**
 * Failed sign-in attempts, counted per email and per IP address in a sliding window kept in the database (so
 * several processes share one count). Past the limit every attempt for that email (or from that IP) answers 429
 * until the oldest failure leaves the window, the right password included, so guessing cannot go on. The scrypt
 * cost per try remains.
 */
export interface ThrottleLimits {
  windowMs: number;
  perEmail: number;
  perIp: number;
}

export const SIGN_IN_LIMITS: ThrottleLimits = { windowMs: 15 * 60_000, perEmail: 5, perIp: 20 };

export class SignInThrottle {
  private lastForget = 0;

  constructor(
    private readonly failures: SignInFailureRepository,
    private readonly limits: ThrottleLimits = SIGN_IN_LIMITS,
  ) {}

  /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
  async retryAfter(email: string, ip: string, now: number): Promise<number> {
    const [byEmail, byIp] = await Promise.all([
      this.wait(`e:${email}`, this.limits.perEmail, now),
      this.wait(`i:${ip}`, this.limits.perIp, now),
    ]);
    return Math.max(byEmail, byIp);
  }

  async fail(email: string, ip: string, now: number): Promise<void> {
    await this.failures.add([`e:${email}`, `i:${ip}`], now);
    // Failures older than the window never count again: dropped at most once a minute, so a flood of distinct
    // emails cannot grow the table without bound.
    if (now - this.lastForget >= 60_000) {
      this.lastForget = now;
      await this.failures.forgetBefore(now - this.limits.windowMs);
    }
  }

  /** A successful sign-in clears that email's failures (not the IP's: one good account must not unlock guessing). */
  async succeed(email: string): Promise<void> {
    await this.failures.clear(`e:${email}`);
  }

  private async wait(key: string, limit: number, now: number): Promise<number> {
    const list = await this.failures.since(key, now - this.limits.windowMs);
    if (list.length < limit) return 0;
    return Math.max(1, Math.ceil((list[list.length - limit]! + this.limits.windowMs - now) / 1000));
  }
}
