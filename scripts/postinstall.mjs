#!/usr/bin/env node
// After `npm install`: makes sure the Debian packages Cerebro uses at run time and in tests are present
// (.ci/needs-debian.txt). As root with apt-get available it installs the missing ones; otherwise it prints the
// command to run. Set CEREBRO_SKIP_APT=1 to skip this step entirely.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

if (process.env.CEREBRO_SKIP_APT === '1') process.exit(0);
const wanted = readFileSync(new URL('../.ci/needs-debian.txt', import.meta.url), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const installed = (pkg) =>
  spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout?.includes('install ok installed');
const missing = wanted.filter((pkg) => !installed(pkg));
if (missing.length === 0) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('apt-get', ['--version']).status === 0;
if (!isRoot || !hasApt) {
  console.warn(
    `\nCerebro usa estos paquetes de Debian, que faltan: ${missing.join(' ')}\n` +
      `Instálalos con: sudo apt-get install -y ${missing.join(' ')}\n`,
  );
  process.exit(0);
}
console.log(`Instalando paquetes de Debian: ${missing.join(' ')}`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
const result = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
  stdio: 'inherit',
  env,
});
process.exit(result.status ?? 1);
