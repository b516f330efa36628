// Studio's activity pages show each audit action by a Spanish label (activity-labels.ts); an action without one
// shows its raw code ("landing.publicada · lnd_…"), as a review found for the landings' and members' events.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every TypeScript source under `dir` (tests left out). */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name));
}

test('every audit action the host and the shipped plugins record has a label in Studio', () => {
  const declared = new Set<string>();
  for (const file of [
    ...sources('host/src'),
    ...['fuentes', 'landing', 'marca', 'ventas', 'transcripcion'].flatMap((p) => sources(`plugins/${p}/src`)),
  ])
    for (const m of readFileSync(file, 'utf8').matchAll(/action: '([a-z_]+(?:\.[a-z_]+)+)'/g)) declared.add(m[1]!);
  assert.ok(declared.size > 40, `${declared.size} actions found`);
  const labels = readFileSync(join(ROOT, 'host/studio/src/pages/activity/activity-labels.ts'), 'utf8');
  const labelled = new Set([...labels.matchAll(/^ {2}'([a-z_.]+)': '/gm)].map((m) => m[1]!));
  assert.deepEqual([...declared].filter((action) => !labelled.has(action)).sort(), []);
});
