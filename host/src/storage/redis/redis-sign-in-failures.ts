// Failed sign-ins in Redis: one sorted set per subject, scored by the failure's time, expiring with the throttle's
// window. A Redis restart forgets them: the throttle starts counting again (at most one window of guesses more per
// email: the scrypt cost per try remains). The database fallback (storage/postgres/pg-sign-in-failures.ts) keeps them.
import { randomBytes } from 'node:crypto';
import type { Redis } from './redis-driver.js';
import type { SignInFailureRepository } from '../port/sign-in-failure-repository.js';

export class RedisSignInFailures implements SignInFailureRepository {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** How long a failure counts (the throttle's window): the set expires that long after its last failure. */
    private readonly windowMs: number,
  ) {}

  private key(subject: string): string {
    return `${this.prefix}fallos:${subject}`;
  }

  async since(subject: string, since: number): Promise<number[]> {
    const scores = await this.redis.zrangebyscore(this.key(subject), `(${since}`, '+inf', 'WITHSCORES');
    const out: number[] = [];
    for (let i = 1; i < scores.length; i += 2) out.push(Number(scores[i]));
    return out;
  }

  async add(subjects: readonly string[], at: number): Promise<void> {
    const tx = this.redis.multi();
    for (const subject of subjects) {
      // Two failures in the same millisecond are two failures: each member is unique.
      tx.zadd(this.key(subject), at, `${at}:${randomBytes(6).toString('hex')}`);
      tx.pexpire(this.key(subject), this.windowMs);
    }
    await tx.exec();
  }

  async clear(subject: string): Promise<void> {
    await this.redis.del(this.key(subject));
  }

  async forgetBefore(_before: number): Promise<void> {
    // Each subject's set expires a window after its last failure; older entries of a live set are never read
    // (`since` starts inside the window).
  }
}
