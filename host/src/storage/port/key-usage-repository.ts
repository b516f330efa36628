import { createToken } from '@cerebro/sdk';

/** The calls of one key counted in a process's memory since its last flush. */
export interface KeyCallsDelta {
  keyId: string;
  /** Every call of the delta (the sum over its days and routes). */
  calls: number;
  /** ISO time of the key's latest call in the delta. */
  lastUsedAt: string;
  /** Calls per UTC day (`YYYY-MM-DD`) and route label (`GET /companies`). */
  days: readonly { day: string; byRoute: ReadonlyMap<string, number> }[];
}

/** A stored count of a key's calls on one route on one UTC day. */
export interface KeyDayRouteCalls {
  day: string;
  route: string;
  calls: number;
}

/**
 * The stored call counters of keys (`llamadas`, `por_ruta`, `ultimo_uso` on the key, calls per day and route).
 * Counting happens in memory on the hot path; this stores the batches.
 */
export interface KeyUsageRepository {
  /**
   * Adds every delta in ONE transaction, additively (processes flushing the same key at once each add their own
   * counts; the latest `lastUsedAt` wins): either all of them are stored or none is.
   */
  addCalls(deltas: readonly KeyCallsDelta[]): Promise<void>;
  /** A key's stored calls per day and route from the UTC day `fromDay` on, oldest first. */
  daysFrom(keyId: string, fromDay: string): Promise<KeyDayRouteCalls[]>;
}

export const KeyUsageRepositoryToken = createToken<KeyUsageRepository>('host:key-usage-repository');
