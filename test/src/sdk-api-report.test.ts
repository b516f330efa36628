import assert from 'node:assert/strict';
import { test } from 'node:test';

const SCRIPT = new URL('../../sdk/scripts/api-report.mjs', import.meta.url).href;

test('the public surface of @cerebro/sdk matches its checked-in API report (sdk/api/*.api.md)', async () => {
  const { runApiReport } = (await import(SCRIPT)) as { runApiReport: (o?: { update?: boolean }) => string[] };
  assert.deepEqual(
    runApiReport(),
    [],
    'a change to the sdk surface: review it, note it in sdk/CHANGELOG.md, then `npm run api-report -w sdk`',
  );
});
