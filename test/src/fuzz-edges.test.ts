import assert from 'node:assert/strict';
import { test } from 'node:test';
import { edgeCases, type EdgeCase } from './support/edge-sweep.js';
import { startFuzzTarget } from './support/fuzz-world.js';
import { isWrite, label } from './support/openapi-operations.js';

// The deterministic half of the fuzz (fuzz-routes.test.ts is the random half): every listed edge value, once each,
// on every route of the OpenAPI document, with the same checks.
test('every route refuses each listed edge value cleanly (an exhaustive sweep beside the random one)', async (t) => {
  const target = await startFuzzTarget(t);
  const failures: string[] = [];
  for (const op of target.operations) {
    const problems: string[] = [];
    const check = async (edge: EdgeCase) => {
      const ordinary = edge.ordinary;
      const { res, problems: found } = await target.probe(
        op,
        edge.request,
        edge.undeclaredPrototypeKeys,
        ordinary && (() => ordinary),
      );
      const input = `${edge.request.method} ${edge.request.path.slice(0, 300)} body=${String(edge.request.body ?? '').slice(0, 300)}`;
      for (const problem of found) {
        problems.push(`${problem}\n  → ${res.status} for ${input}`);
      }
    };
    const cases = edgeCases(op, target.world.credential(op), target.world.realParams(op));
    // Reads change nothing, so they go eight at a time; writes go one by one, each between its two snapshots.
    if (isWrite(op)) for (const edge of cases) await check(edge);
    else for (let i = 0; i < cases.length; i += 8) await Promise.all(cases.slice(i, i + 8).map(check));
    assert.ok(await target.healthy(), `the server answers /api/health after ${label(op)}`);
    if (problems.length > 0) failures.push(`${label(op)}: ${problems.length} failures:\n${problems.join('\n')}`);
  }
  assert.deepEqual(failures, []);
});
