// The counters of limits when several hosts share them (issue #25): the shapes of `limits/limit-windows.ts`'s
// LimitWindows and `studio/sign-in-failures.ts`'s SignInFailures, asynchronous, because a server answers them. Two
// implementations: Redis (storage/redis/, with CEREBRO_REDIS_URL) and PostgreSQL (storage/postgres/, without it).

/** Fixed request windows of spaces (the clock minute, the UTC day), counted atomically across hosts. */
export interface SharedLimitWindows {
  /** Counts one request of `space` in the minute `minute` (ms since the epoch / 60,000); null when `limit` is reached. */
  takeMinute(space: string, minute: number, limit: number): Promise<number | null>;
  /** Counts one request of `space` on the UTC day `day` (YYYY-MM-DD); null when `quota` is reached. */
  takeDay(space: string, day: string, quota: number): Promise<number | null>;
  /**
   * Whether a counted day request is already in the database's `daily_usage` (PostgreSQL) or must be written there
   * by the caller's usage flush, as `MemoryLimitWindows` (Redis only counts).
   */
  readonly daysStored: boolean;
  /** Forgets minute windows older than `minute` (Redis lets them expire by themselves). */
  forgetBefore(minute: number): Promise<void>;
}

/** Failed sign-ins per subject (`e:<email>` or `i:<ip>`), shared by every host. */
export interface SharedSignInFailures {
  /** Times (ms) of the subject's failures after `since`, oldest first. */
  since(subject: string, since: number): Promise<number[]>;
  add(subjects: readonly string[], at: number): Promise<void>;
  /** Forgets a subject's failures (a successful sign-in of that email). */
  clear(subject: string): Promise<void>;
  /** Forgets every failure at or before `before`. */
  forgetBefore(before: number): Promise<void>;
}
