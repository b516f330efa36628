import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KeyCallsDelta, KeyDayRouteCalls, KeyUsageRepository } from '../storage/port/key-usage-repository.js';
import type { RateLimiter } from './limit-services.js';
import { BatchedUsageCounters } from './usage-counters.js';

/** Stored day counts, with a write that lands only when the test lets it (a database round trip in flight). */
class SlowStore implements KeyUsageRepository {
  readonly rows: KeyDayRouteCalls[] = [];
  private release: (() => void) | null = null;
  writing: Promise<void> | null = null;

  addCalls(deltas: readonly KeyCallsDelta[]): Promise<void> {
    this.writing = new Promise<void>((resolve) => {
      this.release = () => {
        for (const d of deltas)
          for (const day of d.days)
            for (const [route, calls] of day.byRoute) this.rows.push({ day: day.day, route, calls });
        resolve();
      };
    });
    return this.writing;
  }

  land(): void {
    this.release?.();
  }

  async daysFrom(): Promise<KeyDayRouteCalls[]> {
    return [...this.rows];
  }
}

const limiter = { flush: async () => undefined } as unknown as RateLimiter;
const NOW = Date.UTC(2026, 10, 27, 12);

test('a read while a flush is writing sees the batch once: after the write, not in neither place', async () => {
  const store = new SlowStore();
  const usage = new BatchedUsageCounters(store, limiter);
  usage.countKeyCall('k', 'GET /companies', NOW);
  usage.countKeyCall('k', 'GET /companies', NOW);
  const flushed = usage.flush();
  // The batch has left memory; its write has not landed.
  const read = usage.exact(() => usage.keyDays('k', 1, NOW));
  await new Promise((resolve) => setImmediate(resolve));
  store.land();
  await flushed;
  const [today] = await read;
  assert.deepEqual(today?.por_ruta, { 'GET /companies': 2 });
  assert.equal(today?.llamadas, 2);
});

test('a failed flush keeps its batch in memory, read exactly, and does not stop the next turn', async () => {
  const failing = new BatchedUsageCounters(
    {
      addCalls: async () => {
        throw new Error('disco lleno');
      },
      daysFrom: async () => [],
    },
    limiter,
  );
  failing.countKeyCall('k', 'GET /companies', NOW);
  await assert.rejects(failing.flush(), /disco lleno/);
  const [today] = await failing.exact(() => failing.keyDays('k', 1, NOW));
  assert.equal(today?.llamadas, 1, 'the failed batch is back in memory and read');
});
