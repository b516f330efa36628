import { createToken } from '@cerebro/sdk';

/** An answer as the cache stores it: the answer's JSON and when it was stored. */
export interface StoredAnswer {
  answer: string;
  createdAt: string;
}

/**
 * The per-space answer cache, keyed by a question's digest. Times are ISO 8601 strings of the caller's clock, which
 * compare in time order. No method needs a transaction: a lost hit count is harmless.
 */
export interface AnswerCacheRepository {
  /** The answer stored under `key` that has not expired at `now`, counting the hit; null when there is none. */
  take(space: string, key: string, now: string): Promise<StoredAnswer | null>;
  /** Stores (or replaces, resetting its hits) the answer under `key` until `expiresAt`. */
  put(space: string, key: string, answer: string, createdAt: string, expiresAt: string): Promise<void>;
  /** Empties a space's cache; returns how many answers were dropped. */
  clear(space: string): Promise<number>;
  /** Drops every answer expired at `now`; returns how many. */
  purgeExpired(now: string): Promise<number>;
}

export const AnswerCacheRepositoryToken = createToken<AnswerCacheRepository>('host:answer-cache-repository');
