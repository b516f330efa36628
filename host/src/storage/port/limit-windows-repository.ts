import { createToken } from '@cerebro/sdk';

/** What one counted request found: the window's count after it, and whether it was let through. */
export interface WindowHit {
  /** The window's count after this request (when refused: the count as it stands, at or above the limit). */
  count: number;
  allowed: boolean;
}

/**
 * Fixed request windows of named buckets (`espacio:<id>:minuto`, `clave:<id>:dia`, …): the counts behind the
 * per-minute limits and daily quotas of spaces and keys. A window is `[windowStart, windowStart + windowMs)` in ms
 * since the epoch; `windowMs` gives its lifetime (a Redis implementation sets it as the key's expiry, a SQL one
 * stores the end for `forgetExpired`). Every method is one atomic operation: processes sharing the store that
 * `hit` the same window at once never let more than `limit` requests through together, and `add` never loses a
 * count another process added at the same moment (additive, never read-modify-write).
 */
export interface LimitWindowsRepository {
  /**
   * Counts one request in the window when its count is below `limit`; otherwise changes nothing and answers
   * `allowed: false`. A `limit` of 0 or less refuses every request.
   */
  hit(bucket: string, windowStart: number, windowMs: number, limit: number): Promise<WindowHit>;
  /** The window's count (0 when nobody counted in it). */
  count(bucket: string, windowStart: number): Promise<number>;
  /**
   * Adds calls counted elsewhere (in a process's memory) to their windows, all in one transaction, without any
   * limit: either every entry is added or none is.
   */
  add(entries: readonly WindowCalls[]): Promise<void>;
  /** Forgets windows that ended before `now` (their counts are never read again). */
  forgetExpired(now: number): Promise<void>;
}

/** Calls of one window counted in memory, added at a flush. */
export interface WindowCalls {
  bucket: string;
  windowStart: number;
  windowMs: number;
  calls: number;
}

export const LimitWindowsRepositoryToken = createToken<LimitWindowsRepository>('host:limit-windows-repository');
