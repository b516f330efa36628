/**
 * Failed sign-in attempts, counted per email and per IP address in a sliding window kept in memory. Past the
 * limit every attempt for that email (or from that IP) answers 429 until the oldest failure leaves the window,
 * the right password included, so guessing cannot go on. A restart forgives; the scrypt cost per try remains.
 */
export interface ThrottleLimits {
  windowMs: number;
  perEmail: number;
  perIp: number;
}

export const SIGN_IN_LIMITS: ThrottleLimits = { windowMs: 15 * 60_000, perEmail: 5, perIp: 20 };

export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly limits: ThrottleLimits = SIGN_IN_LIMITS) {}

  /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfter(email: string, ip: string, now: number): number {
    return Math.max(this.wait(`e:${email}`, this.limits.perEmail, now), this.wait(`i:${ip}`, this.limits.perIp, now));
  }

  fail(email: string, ip: string, now: number): void {
    this.push(`e:${email}`, now);
    this.push(`i:${ip}`, now);
  }

  /** A successful sign-in clears that email's failures (not the IP's: one good account must not unlock guessing). */
  succeed(email: string): void {
    this.failures.delete(`e:${email}`);
  }

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((at) => at > now - this.limits.windowMs);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  private wait(key: string, limit: number, now: number): number {
    const list = this.recent(key, now);
    if (list.length < limit) return 0;
    return Math.max(1, Math.ceil((list[list.length - limit]! + this.limits.windowMs - now) / 1000));
  }

  private push(key: string, now: number): void {
    const list = this.recent(key, now);
    list.push(now);
    this.failures.set(key, list);
    // A flood of distinct emails must not grow memory without bound: drop the oldest keys.
    if (this.failures.size > 100_000) this.failures.delete(this.failures.keys().next().value!);
  }
}
