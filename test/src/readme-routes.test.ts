import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';

test('every route in the OpenAPI document (host and every installed plugin) is in the README route overview', async (t) => {
  const h = await startTestHost(t, { discover: true });
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const doc = (await h.client.get('/openapi.json', { key: null })).body as {
    paths: Record<string, Record<string, unknown>>;
  };
  const missing: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const method of Object.keys(methods)) {
      const row = `| ${method.toUpperCase()} | \`${path}\` |`;
      if (!readme.includes(row)) missing.push(row);
    }
  }
  assert.deepEqual(missing, [], 'routes missing from the README overview');
  assert.ok(Object.values(doc.paths).flatMap((m) => Object.keys(m)).length > 20);
});
