// The executable as shipped: the native stub (stub/cerebro-stub.c), then the runtime (Node with the SEA blob)
// compressed with zstd, then a 48-byte trailer the stub reads from the end of its own file.
//
// zstd because its decompression is fast enough for a first start (~1 GB/s: the 170 MB runtime in a fraction of a
// second) while compressing Node's binary to about a quarter; xz compresses a little better but decompresses ~10×
// slower. Level 12 with a 128 MB window: measured on the 2-core build machine, -12 took 46 s and -16 six minutes for
// 2 % less; -19 did not finish in ten. The stub links libzstd statically (Debian's libzstd-dev ships the archive), so
// the executable needs nothing but glibc, as Node itself.
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const ZSTD_LEVEL = Number(process.env.CEREBRO_BINARY_ZSTD_LEVEL ?? 12);
const WINDOW_LOG = 27; // the stub allows this window (ZSTD_d_windowLogMax)
const MAGIC = 'CRBSTUB1';

function run(cmd, args) {
  const res = spawnSync(cmd, args, { stdio: 'inherit' });
  if (res.error?.code === 'ENOENT') throw new Error(`${cmd} is missing: install it (.ci/needs-debian.txt lists it)`);
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${res.status ?? res.signal})`);
}

/** Compiles the stub, compresses `runtime` and writes the executable to `out`. */
export function wrapStub({ work, runtime, out, buildId }) {
  if (!/^[0-9a-f]{16}$/.test(buildId)) throw new Error(`bad build id ${buildId}`);
  const stub = join(work, 'cerebro-stub');
  run('cc', ['-O2', '-s', '-Wall', '-Werror', '-o', stub, join(here, 'stub', 'cerebro-stub.c'), '-l:libzstd.a']);
  const payload = join(work, 'runtime.zst');
  run('zstd', ['-q', '-f', `-${ZSTD_LEVEL}`, `--long=${WINDOW_LOG}`, '-T0', '-o', payload, runtime]);

  const stubBytes = readFileSync(stub);
  const payloadSize = statSync(payload).size;
  const trailer = Buffer.alloc(48);
  trailer.write(MAGIC, 0, 'latin1');
  trailer.writeBigUInt64LE(BigInt(stubBytes.length), 8);
  trailer.writeBigUInt64LE(BigInt(payloadSize), 16);
  trailer.writeBigUInt64LE(BigInt(statSync(runtime).size), 24);
  trailer.write(buildId, 32, 'latin1');

  rmSync(out, { force: true });
  const fd = openSync(out, 'w', 0o755);
  try {
    writeSync(fd, stubBytes);
    writeSync(fd, readFileSync(payload));
    writeSync(fd, trailer);
  } finally {
    closeSync(fd);
  }
  chmodSync(out, 0o755);
  return { level: ZSTD_LEVEL };
}
