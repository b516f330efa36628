// packaging/: no container engine runs on the test machines, so `docker build` is never exercised here. What can be
// checked without one is checked: every file the Dockerfile copies from the build context exists and is not
// excluded by .dockerignore, the commands it runs are the README's (npm ci, npm run build:binary), the file its
// second stage copies is what build:binary writes, and both stages install what the service needs. The systemd
// unit is checked against the README's install steps.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface Instruction {
  op: string;
  args: string;
  stage: number;
}

/** Dockerfile instructions, continuation lines joined and comments dropped; `stage` counts FROM lines. */
function instructions(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ');
  const out: Instruction[] = [];
  let stage = -1;
  for (const line of joined.split('\n')) {
    const m = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === 'FROM') stage++;
    out.push({ op: m[1]!, args: m[2]!.trim(), stage });
  }
  return out;
}

/**
 * Whether .dockerignore patterns leave `path` out of the build context: a pattern matches from the context root
 * (a leading `**` segment: at any depth; `*`: within one name), and a folder left out takes everything under it.
 */
function ignored(patterns: string[], path: string): boolean {
  const prefixes = path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
  return patterns.some((p) => {
    const anyDepth = p.startsWith('**/');
    const body = (anyDepth ? p.slice(3) : p).replace(/\./g, '\\.').replace(/\*/g, '[^/]*');
    const re = new RegExp(`^${anyDepth ? '(?:.*/)?' : ''}${body}$`);
    return prefixes.some((prefix) => re.test(prefix));
  });
}

const dockerfile = instructions(read('packaging/docker/Dockerfile'));
const dockerignore = read('.dockerignore')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string>; engines: { node: string } };

test('the Dockerfile builds in one stage and runs in a second one', () => {
  const froms = dockerfile.filter((i) => i.op === 'FROM').map((i) => i.args);
  assert.equal(froms.length, 2);
  assert.match(froms[0]!, /^node:(\d+)-bookworm AS build$/);
  const major = /^node:(\d+)/.exec(froms[0]!)![1]!;
  assert.ok(
    pkg.engines.node.split('||').some((r) => r.trim().startsWith(`^${major}`)),
    `node ${major} is a supported line (${pkg.engines.node})`,
  );
  assert.match(froms[1]!, /^debian:bookworm-slim$/, 'the run stage is the Debian the executable is tested on');
});

test('what the Dockerfile copies from the build context exists and is not left out by .dockerignore', () => {
  const copies = dockerfile.filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'));
  assert.ok(copies.length > 0);
  for (const copy of copies) {
    const sources = copy.args.split(/\s+/).slice(0, -1);
    for (const source of sources) assert.ok(existsSync(join(ROOT, source)), `COPY source ${source} exists`);
  }
  // `COPY . .` then `npm ci` and `npm run build:binary`: everything those read must reach the context.
  const needed = [
    'package.json',
    'package-lock.json',
    '.npmrc',
    'tsconfig.json',
    'scripts/binary/build.mjs',
    'scripts/postinstall.mjs',
    '.ci/needs-debian.txt',
    'host/package.json',
    'host/src/index.ts',
    'sdk/package.json',
    'plugins/transcripcion/package.json',
  ];
  for (const file of needed) {
    assert.ok(existsSync(join(ROOT, file)), `${file} exists`);
    assert.ok(!ignored(dockerignore, file), `${file} is not excluded by .dockerignore`);
  }
  for (const local of ['node_modules', 'host/dist', '.build', 'dist-binary', 'data']) {
    assert.ok(ignored(dockerignore, local), `${local} (this machine's build state) stays out of the context`);
  }
});

test("the build stage runs the README's commands and the run stage copies what build:binary writes", () => {
  const runs = dockerfile
    .filter((i) => i.op === 'RUN' && i.stage === 0)
    .map((i) => i.args)
    .join(' && ');
  assert.match(runs, /npm ci\b/);
  assert.match(runs, /npm run build:binary\b/);
  assert.ok(pkg.scripts['build:binary'], 'package.json has build:binary');
  assert.match(
    read('scripts/binary/build.mjs'),
    /join\(repoRoot, 'dist-binary', 'cerebro'\)/,
    'build:binary writes dist-binary/cerebro',
  );
  const fromBuild = dockerfile.find((i) => i.op === 'COPY' && i.args.startsWith('--from=build'));
  assert.equal(fromBuild?.args, '--from=build /src/dist-binary/cerebro /usr/local/bin/cerebro');
  const workdir = dockerfile.find((i) => i.op === 'WORKDIR' && i.stage === 0)?.args;
  assert.equal(workdir, '/src', 'the build stage works in /src, where it copies the context');
  const entry = dockerfile.find((i) => i.op === 'ENTRYPOINT')?.args;
  assert.equal(entry, '["/usr/local/bin/cerebro"]');
  assert.equal(dockerfile.find((i) => i.op === 'CMD')?.args, '["serve"]');
  // The README's own docker commands use the same file and volume.
  const readme = read('README.md');
  assert.match(readme, /docker build -f packaging\/docker\/Dockerfile -t cerebro \./);
  const volume = /VOLUME \["([^"]+)"\]/.exec(read('packaging/docker/Dockerfile'))?.[1];
  assert.ok(volume && readme.includes(`cerebro-data:${volume}`), 'the README mounts the declared volume');
});

test('both stages install what they need from Debian', () => {
  const aptOf = (stage: number) =>
    dockerfile
      .filter((i) => i.op === 'RUN' && i.stage === stage)
      .map((i) => i.args)
      .join(' ');
  // node-gyp compiles better-sqlite3 and whisper.cpp; strip shrinks the executable.
  for (const tool of ['python3', 'make', 'g++', 'binutils'])
    assert.ok(aptOf(0).split(/\s+/).includes(tool), `the build stage installs ${tool}`);
  const needs = read('.ci/needs-debian.txt');
  for (const runtime of ['ffmpeg', 'poppler-utils', 'tesseract-ocr', 'tesseract-ocr-spa', 'tesseract-ocr-eng']) {
    assert.match(aptOf(1), new RegExp(`\\b${runtime}\\b`), `the image has ${runtime}`);
    assert.match(needs, new RegExp(`^${runtime}$`, 'm'), `${runtime} is also a project need`);
    assert.match(
      read('README.md'),
      new RegExp(`apt-get install -y [^\\n]*\\b${runtime}\\b`),
      `the README's systemd install lists ${runtime}`,
    );
  }
  assert.match(aptOf(1), /useradd --system [^&]*cerebro/, 'the service runs as its own user');
  assert.equal(dockerfile.find((i) => i.op === 'USER')?.args, 'cerebro');
});

test("the systemd unit matches the README's install steps", () => {
  const unit = read('packaging/systemd/cerebro.service');
  const readme = read('README.md');
  assert.match(unit, /^ExecStart=\/usr\/local\/bin\/cerebro serve$/m);
  assert.match(readme, /install -m 0755 dist-binary\/cerebro \/usr\/local\/bin\/cerebro/);
  for (const file of ['cerebro.sysusers', 'cerebro.service', 'cerebro.env']) {
    assert.ok(existsSync(join(ROOT, 'packaging/systemd', file)));
    assert.ok(readme.includes(`packaging/systemd/${file}`), `the README installs ${file}`);
  }
  assert.match(unit, /^User=cerebro$/m);
  assert.match(read('packaging/systemd/cerebro.sysusers'), /^u cerebro /m);
  for (const option of [
    'StateDirectory=cerebro',
    'CacheDirectory=cerebro',
    'WorkingDirectory=/var/lib/cerebro',
    'NoNewPrivileges=yes',
    'ProtectSystem=strict',
  ]) {
    assert.match(unit, new RegExp(`^${option}$`, 'm'));
  }
  assert.match(unit, /^EnvironmentFile=-\/etc\/cerebro\/cerebro\.env$/m);
});
