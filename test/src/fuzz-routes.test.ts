import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fuzzCases } from './support/fuzz-case.js';
import { startFuzzTarget } from './support/fuzz-world.js';
import { label } from './support/openapi-operations.js';

// Reproduce a failure with the seed it prints: CEREBRO_FUZZ_SEED=<seed> node scripts/run-tests.mjs fuzz-routes
const SEED = Number(process.env.CEREBRO_FUZZ_SEED ?? 16_2026);
const RUNS = Number(process.env.CEREBRO_FUZZ_RUNS ?? 30);

/** A stable per-route seed, so one route's failure replays without running the others. */
function routeSeed(route: string): number {
  let h = SEED | 0;
  for (const ch of route) h = Math.imul(h ^ ch.charCodeAt(0), 16_777_619);
  return h;
}

test('every route of the OpenAPI document survives hostile input', async (t) => {
  const target = await startFuzzTarget(t);
  const failures: string[] = [];
  for (const op of target.operations) {
    await t.test(label(op), async () => {
      const seed = routeSeed(label(op));
      const run = fc.asyncProperty(fuzzCases(op, target.world), async (fuzz) => {
        const { res, problems } = await target.probe(
          op,
          fuzz.request,
          fuzz.undeclaredPrototypeKeys,
          fuzz.withOrdinaryKeys,
        );
        if (problems.length > 0) throw new Error(`${problems.join('; ')}\n  → ${res.status} for ${fuzz.toString()}`);
      });
      try {
        await fc.assert(run, { seed, numRuns: RUNS });
      } catch (error) {
        failures.push(label(op));
        const cause = (error as Error).cause instanceof Error ? `\n${((error as Error).cause as Error).message}` : '';
        throw new Error(
          `${label(op)} (CEREBRO_FUZZ_SEED=${SEED}, route seed ${seed}): ${(error as Error).message}${cause}`,
        );
      } finally {
        assert.ok(await target.healthy(), `the server answers /api/health after ${label(op)}`);
      }
    });
  }
  assert.deepEqual(failures, [], `routes with failures (CEREBRO_FUZZ_SEED=${SEED})`);
});
