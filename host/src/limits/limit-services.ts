// The interfaces of the limits the host's tokens are typed by: the pipeline, the key service and the upload routes
// depend on these shapes, not on the classes that implement them.

/** One day of a key's calls, for the console's chart. */
export interface KeyDay {
  dia: string;
  llamadas: number;
  por_ruta: Record<string, number>;
}

export interface KeyUsage {
  llamadas: number;
  por_ruta: Record<string, number>;
  ultimo_uso: string | null;
}

/** Call counters of keys (see `BatchedUsageCounters`). */
export interface UsageCounters {
  /** Counts one call of a key on a route pattern (e.g. `GET /companies`). */
  countKeyCall(keyId: string, route: string, now: number): void;
  /** Stored figures of a key merged with what is pending. */
  keyUsage(keyId: string, stored: { calls: number; calls_by_route: string; last_used_at: string | null }): KeyUsage;
  /** A key's calls per UTC day over the last `days` days up to `now` (days without calls included, oldest first). */
  keyDays(keyId: string, days: number, now: number): Promise<KeyDay[]>;
  /**
   * Runs a read of stored counts (key rows, then `keyUsage`/`keyDays`) with no flush in between: a flush takes its
   * batch out of memory before its write lands, and a read in that gap would see the batch in neither place.
   */
  exact<T>(read: () => Promise<T>): Promise<T>;
  /** Writes everything pending (keys' counts, the limiter's day counts); on failure nothing pending is dropped. */
  flush(): Promise<void>;
}

/** What an upload adds: bytes (negative when a replacement is smaller) and new documents. */
export interface StorageDelta {
  bytes: number;
  documents: number;
}

/** An account's storage: what it holds and its limits (null: no limit). */
export interface StorageUse {
  bytes: number;
  documents: number;
  maxBytes: number | null;
  maxDocuments: number | null;
}

/** Room held for an upload in flight; `release` once its files are stored (or it failed). */
export interface StorageHold {
  /** Gives the room back (resolves once other processes no longer count it). */
  release(): Promise<void>;
}

/** Per-account storage quotas: what an account holds, and room held for uploads in flight. */
export interface StorageQuotas {
  /** What the account holds (stored documents of all its spaces, any state) and its limits. */
  use(accountId: string): Promise<StorageUse>;
  /** Refuses at once an upload to an account already full (before its body is read). */
  assertRoom(accountId: string): Promise<void>;
  /** Checks that `delta` fits and holds it until released; rejects with 413 (bytes) or 422 (documents) otherwise. */
  hold(accountId: string, delta: StorageDelta): Promise<StorageHold>;
}

/** The limits of one side of a request: requests per clock minute and per UTC day (null: no limit). */
export interface LimitPair {
  perMinute: number | null;
  daily: number | null;
}

/** One request of a key on a space, as the limiter sees it. */
export interface LimitedCall {
  spaceId: string;
  /** The space's limits; null when they do not apply (a settings route called by a write key of the owner). */
  space: LimitPair | null;
  keyId: string;
  /** The key's own limits (both null: only the space's apply). */
  key: LimitPair;
  now: number;
}

/** One request of a visitor to a public route, as the limiter sees it. */
export interface AddressCall {
  /** The client's address (behind a trusted proxy, the one it forwarded). */
  ip: string;
  /** The route (`operationId`): each public route has its own count per address. */
  route: string;
  perMinute: number;
  now: number;
}

/**
 * Per-minute limits and daily quotas of spaces and keys, with the IETF `RateLimit-*` headers naming the limit that
 * applied (`limite="clave"` or `"espacio"` in `RateLimit-Policy`).
 */
export interface RateLimiter {
  /**
   * Counts one request against every limit that applies and adds the headers to send to `headers`, or throws 429.
   * Answers synchronously when it counts in memory; returns a promise when it has to ask the shared store.
   */
  take(call: LimitedCall, headers: Record<string, string>): void | Promise<void>;
  /**
   * Counts one visitor request against its address's per-minute limit on that route (`limite="direccion"`), or
   * throws 429 `rate_limited`. Synchronous when counted in memory.
   */
  takeAddress(call: AddressCall, headers: Record<string, string>): void | Promise<void>;
  /** Writes the day counts still in memory; on failure nothing is dropped and the error is thrown. */
  flush(): Promise<void>;
}

/** A turn held: how long it waited for it, and `release` (call exactly once, when the question is answered). */
export interface Turn {
  waitedMs: number;
  release(): void;
}

/** Per-space question turns: how many questions of a space run at once, and how many wait. */
export interface SpaceGate {
  /** Waits for a turn of `space`. Rejects with 503 `space_busy` when the line is full or the wait too long. */
  enter(space: string, signal?: AbortSignal): Promise<Turn>;
  /** Questions running and waiting in a space (for metrics and tests). */
  load(space: string): { running: number; waiting: number };
}
