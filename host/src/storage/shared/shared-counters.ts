// The counters of limits when several hosts share them (issue #25), asynchronous because a server answers them.
// Their shapes are, member for member, those of the storage port's interfaces being written beside this work:
// `storage/port/limit-windows-repository.ts` (LimitWindowsRepository, helper "perkey") and
// `storage/port/sign-in-failure-repository.ts` (SignInFailureRepository, helper "port-access"). Once those land, these
// declarations go and the Redis and PostgreSQL classes implement the port's interfaces (they already fit them).

/** What one counted request found: the window's count after it, and whether it was let through. */
export interface WindowHit {
  count: number;
  allowed: boolean;
}

/** Calls of one window counted in memory, added at a flush. */
export interface WindowCalls {
  bucket: string;
  windowStart: number;
  windowMs: number;
  calls: number;
}

/**
 * Fixed request windows of named buckets (`espacio:<id>:minuto`, `clave:<id>:dia`, …): `[windowStart, windowStart +
 * windowMs)` in ms since the epoch. `hit` is atomic across hosts: together they never let more than `limit` through.
 */
export interface SharedLimitWindows {
  /** Counts one request when the window is below `limit`; otherwise changes nothing. A limit <= 0 refuses all. */
  hit(bucket: string, windowStart: number, windowMs: number, limit: number): Promise<WindowHit>;
  /** The window's count (0 when nobody counted in it). */
  count(bucket: string, windowStart: number): Promise<number>;
  /** Adds calls counted elsewhere to their windows, without any limit, all or none. */
  add(entries: readonly WindowCalls[]): Promise<void>;
  /** Forgets windows that ended before `now`. */
  forgetExpired(now: number): Promise<void>;
}

/** Failed sign-ins per subject (`e:<email>` or `i:<ip>`), shared by every host. */
export interface SharedSignInFailures {
  /** Times (ms) of the subject's failures after `since`, oldest first. */
  since(subject: string, since: number): Promise<number[]>;
  /** Records the failure for every subject, all or none. */
  add(subjects: readonly string[], at: number): Promise<void>;
  /** Forgets a subject's failures (a successful sign-in of that email). */
  clear(subject: string): Promise<void>;
  /** Forgets every failure at or before `before`. */
  forgetBefore(before: number): Promise<void>;
}
