#!/usr/bin/env node
// `npm run bench`: runs every bench/*.bench.mjs in turn (each in its own process, each bounded in time) and prints
// their figures. `npm run bench -- auth` runs the ones whose file name contains "auth".
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const filter = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => filter.length === 0 || filter.some((needle) => f.includes(needle)))
  .sort();
let failed = 0;
for (const file of benches) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, [`${dir}/${file}`], { stdio: 'inherit', env: process.env });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
