import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY_MS } from './limit-windows.js';
import { PendingDayCalls } from './pending-day-calls.js';

test('day calls are written to their own day across midnight, and a failed batch comes back with the next one', () => {
  const pending = new PendingDayCalls();
  const monday = 20_000 * DAY_MS;
  pending.add('espacio:a:dia', monday);
  pending.add('espacio:a:dia', monday);
  pending.add('clave:k:dia', monday);
  pending.add('espacio:a:dia', monday + DAY_MS); // after midnight: Monday's two are set aside, not mixed in
  assert.equal(pending.count('espacio:a:dia', monday), 2);
  assert.equal(pending.count('espacio:a:dia', monday + DAY_MS), 1);
  const batch = pending.drain();
  assert.deepEqual(
    batch.map((e) => [e.bucket, e.windowStart - monday, e.calls, e.windowMs]),
    [
      ['espacio:a:dia', 0, 2, DAY_MS],
      ['espacio:a:dia', DAY_MS, 1, DAY_MS],
      ['clave:k:dia', 0, 1, DAY_MS],
    ],
  );
  assert.deepEqual(pending.drain(), []);
  // The write failed: the batch is kept beside what was counted meanwhile, and both go out next time.
  pending.add('espacio:a:dia', monday + DAY_MS);
  pending.restore(batch);
  assert.equal(pending.count('espacio:a:dia', monday + DAY_MS), 2);
  const again = pending.drain();
  assert.equal(
    again.reduce((n, e) => n + e.calls, 0),
    5,
  );
});
