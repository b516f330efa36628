// The per-address limit of public routes: counted per address and route, a 429 `rate_limited` with the
// `direccion` policy past it, and, on processes that share the database, once for all of them.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HostConfig } from '../config/host-config.js';
import type { LimitWindowsRepository, WindowCalls } from '../storage/port/limit-windows-repository.js';
import { RequestWindowLimiter } from './rate-limiter.js';

/** Windows kept in a map: the store several processes would share. */
class SharedWindows implements LimitWindowsRepository {
  readonly counts = new Map<string, number>();
  async hit(bucket: string, windowStart: number, _windowMs: number, limit: number) {
    const key = `${bucket}@${windowStart}`;
    const count = this.counts.get(key) ?? 0;
    if (limit <= 0 || count >= limit) return { count, allowed: false };
    this.counts.set(key, count + 1);
    return { count: count + 1, allowed: true };
  }
  async count(bucket: string, windowStart: number) {
    return this.counts.get(`${bucket}@${windowStart}`) ?? 0;
  }
  async add(entries: readonly WindowCalls[]) {
    for (const e of entries) {
      const key = `${e.bucket}@${e.windowStart}`;
      this.counts.set(key, (this.counts.get(key) ?? 0) + e.calls);
    }
  }
  async forgetExpired() {}
}

const NOW = Date.parse('2026-11-27T10:00:10.000Z');
const limiter = (role: HostConfig['role'], windows: LimitWindowsRepository) =>
  new RequestWindowLimiter(windows, { role } as HostConfig);

async function refusal(take: () => void | Promise<void>) {
  try {
    await take();
  } catch (err) {
    return err as { code: string; detail: string; headers: Record<string, string> };
  }
  return null;
}

test('a process alone counts each address and route apart, in memory; past the limit a 429 naming the address policy', async () => {
  const windows = new SharedWindows();
  const alone = limiter('todo', windows);
  const call = (ip: string, route = 'landing.public_lead') => ({ ip, route, perMinute: 2, now: NOW });
  const headers: Record<string, string> = {};
  assert.equal(alone.takeAddress(call('203.0.113.7'), headers), undefined, 'synchronous in memory');
  assert.equal(headers['RateLimit-Remaining'], '1');
  alone.takeAddress(call('203.0.113.7'), {});
  alone.takeAddress(call('203.0.113.8'), {});
  alone.takeAddress(call('203.0.113.7', 'landing.public_page'), {});
  const refused = await refusal(() => alone.takeAddress(call('203.0.113.7'), {}));
  assert.equal(refused?.code, 'rate_limited');
  assert.match(
    refused?.detail ?? '',
    /^Demasiadas peticiones desde tu dirección: esta página admite 2 por minuto\. Reintenta en 50 s\.$/,
  );
  assert.equal(refused?.headers['Retry-After'], '50');
  assert.equal(refused?.headers['RateLimit-Policy'], '2;w=60;limite="direccion"');
  assert.equal(windows.counts.size, 0, 'nothing written per request');
  // The next minute starts again.
  assert.equal(await refusal(() => alone.takeAddress({ ...call('203.0.113.7'), now: NOW + 60_000 }, {})), null);
});

test('processes sharing the database give an address its limit once, not once each', async () => {
  const windows = new SharedWindows();
  const a = limiter('api', windows);
  const b = limiter('api', windows);
  const call = { ip: '198.51.100.4', route: 'landing.public_lead', perMinute: 3, now: NOW };
  await a.takeAddress(call, {});
  await b.takeAddress(call, {});
  await a.takeAddress(call, {});
  assert.equal((await refusal(() => b.takeAddress(call, {})))?.code, 'rate_limited');
  assert.equal((await refusal(() => a.takeAddress(call, {})))?.code, 'rate_limited');
});
