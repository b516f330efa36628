// The README's architecture map names every folder of host/src, so a newcomer finds each concept from it.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

test('the README architecture map lists every host/src folder; http and rag have a README of their own', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const map = /## Architecture\n\n```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const folders = readdirSync(join(ROOT, 'host/src'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  assert.deepEqual(
    folders.filter((name) => !map.includes(`src/${name}/`)),
    [],
    'folders missing from the map',
  );
  for (const folder of ['http', 'rag', 'cerebro'])
    assert.ok(existsSync(join(ROOT, 'host/src', folder, 'README.md')), `host/src/${folder}/README.md`);
});
