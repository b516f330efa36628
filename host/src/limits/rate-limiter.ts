import { inject, injectable } from 'tsyringe';
import { apiError } from '@cerebro/sdk';
import type { RateLimiter } from './limit-services.js';
import { HostTokens } from '../kernel/tokens.js';
import type { SqliteDatabase } from '../storage/database.js';
import type { HostConfig } from '../config/host-config.js';
import { type LimitWindows, MemoryLimitWindows, SqliteLimitWindows } from './limit-windows.js';

const WINDOW_MS = 60_000;

/**
 * Requests-per-minute limit per space for keys, as fixed one-minute windows. Processes that share the database
 * (`--rol api|worker`) count in it, so they give a space its limit once, not once each; a process alone on it
 * (`--rol todo`) counts in memory, as always, without a write per request. Answers the IETF `RateLimit-*` headers
 * on every limited response and `Retry-After` on 429. Spaces without a limit cost nothing here.
 */
@injectable()
export class WindowRateLimiter implements RateLimiter {
  private readonly windows: LimitWindows;
  private lastForget = 0;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase, @inject(HostTokens.Config) config: HostConfig) {
    this.windows = config.role === 'todo' ? new MemoryLimitWindows(() => 0) : new SqliteLimitWindows(db);
  }

  /** Counts one request and adds the headers to send to `headers`, or throws 429. */
  take(spaceId: string, limit: number | null, now: number, headers: Record<string, string>): void {
    if (limit === null) return;
    const minute = Math.floor(now / WINDOW_MS);
    const reset = Math.max(1, Math.ceil(((minute + 1) * WINDOW_MS - now) / 1000));
    headers['RateLimit-Limit'] = String(limit);
    headers['RateLimit-Reset'] = String(reset);
    headers['RateLimit-Policy'] = `${limit};w=60`;
    const count = this.windows.takeMinute(spaceId, minute, limit);
    if (count === null) {
      headers['RateLimit-Remaining'] = '0';
      throw apiError(
        'rate_limited',
        `Demasiadas peticiones: este espacio admite ${limit} por minuto. Reintenta en ${reset} s.`,
        { ...headers, 'Retry-After': String(reset) },
      );
    }
    headers['RateLimit-Remaining'] = String(limit - count);
    if (minute > this.lastForget) {
      // Once a minute per process: windows of past minutes are never read again.
      this.lastForget = minute;
      this.windows.forgetBefore(minute - 1);
    }
  }
}
