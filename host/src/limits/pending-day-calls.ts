import type { WindowCalls } from '../storage/port/limit-windows-repository.js';
import { DAY_MS } from './limit-windows.js';

interface DayCount {
  dayStart: number;
  calls: number;
}

/**
 * Day-window calls counted in memory and not yet written. One entry per bucket for the current day; a call after
 * midnight sets the previous day's entry aside first, so a flush interval that spans midnight writes each day's
 * calls to its own window.
 */
export class PendingDayCalls {
  private current = new Map<string, DayCount>();
  private earlier: WindowCalls[] = [];

  add(bucket: string, dayStart: number): void {
    const entry = this.current.get(bucket);
    if (entry?.dayStart === dayStart) {
      entry.calls++;
      return;
    }
    if (entry && entry.calls > 0)
      this.earlier.push({ bucket, windowStart: entry.dayStart, windowMs: DAY_MS, calls: entry.calls });
    this.current.set(bucket, { dayStart, calls: 1 });
  }

  /** Calls of a bucket's day not yet written. */
  count(bucket: string, dayStart: number): number {
    let calls = 0;
    const entry = this.current.get(bucket);
    if (entry?.dayStart === dayStart) calls += entry.calls;
    for (const e of this.earlier) if (e.bucket === bucket && e.windowStart === dayStart) calls += e.calls;
    return calls;
  }

  /** Everything pending, as window additions; the pending set is empty afterwards. */
  drain(): WindowCalls[] {
    const batch = this.earlier;
    this.earlier = [];
    for (const [bucket, entry] of this.current) {
      if (entry.calls > 0) batch.push({ bucket, windowStart: entry.dayStart, windowMs: DAY_MS, calls: entry.calls });
    }
    this.current = new Map();
    return batch;
  }

  /** Puts back a batch whose write failed (kept apart from what was counted meanwhile, written with it next time). */
  restore(batch: readonly WindowCalls[]): void {
    this.earlier.push(...batch);
  }
}
