import { injectable } from 'tsyringe';
import { apiError } from '@cerebro/sdk';
import type { RateLimiter } from './limit-services.js';

const WINDOW_MS = 60_000;

interface Window {
  start: number;
  count: number;
}

/**
 * Requests-per-minute limit per space for keys, as a fixed one-minute window in memory (a restart forgives at
 * most one minute). Answers the IETF `RateLimit-*` headers on every limited response and `Retry-After` on 429.
 */
@injectable()
export class WindowRateLimiter implements RateLimiter {
  private windows = new Map<string, Window>();

  /** Counts one request and adds the headers to send to `headers`, or throws 429. */
  take(spaceId: string, limit: number | null, now: number, headers: Record<string, string>): void {
    if (limit === null) return;
    let window = this.windows.get(spaceId);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now - (now % WINDOW_MS), count: 0 };
      this.windows.set(spaceId, window);
    }
    const reset = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
    headers['RateLimit-Limit'] = String(limit);
    headers['RateLimit-Reset'] = String(reset);
    headers['RateLimit-Policy'] = `${limit};w=60`;
    if (window.count >= limit) {
      headers['RateLimit-Remaining'] = '0';
      throw apiError(
        'rate_limited',
        `Demasiadas peticiones: este espacio admite ${limit} por minuto. Reintenta en ${reset} s.`,
        { ...headers, 'Retry-After': String(reset) },
      );
    }
    window.count++;
    headers['RateLimit-Remaining'] = String(limit - window.count);
  }
}
