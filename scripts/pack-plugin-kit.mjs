#!/usr/bin/env node
// Last step of `npm run build`: packs the two packages a plugin project outside this repository depends on, the
// sdk and the host (which the sdk's testing kit starts), into dist-sdk/ with `npm pack`, as a registry would serve
// them. `cerebro plugins nuevo` writes projects that install them from there (`file:` paths).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist-sdk');
mkdirSync(out, { recursive: true });
// Tarballs of earlier versions would be picked up by nobody but would mislead a reader of the folder.
for (const name of readdirSync(out)) if (name.endsWith('.tgz')) rmSync(join(out, name));
const packed = JSON.parse(
  execFileSync('npm', ['pack', '--json', '--pack-destination', out, './sdk', './host'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }),
);
for (const { filename } of packed) console.log(`dist-sdk/${filename}`);
