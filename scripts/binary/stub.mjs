// The executable as shipped: the native stub (stub/cerebro-stub.c), then the runtime (Node with the SEA blob)
// compressed in frames, then the deferred parts (defer.mjs: compressed on their own, unpacked by the runtime on first
// use), then a 56-byte trailer the stub reads from the end of its own file.
//
// The runtime's codec is LZ4 (high compression, -12) by default, chosen by measurement on the 2-core build machine
// for the first start, which decompresses all of it: on the 127 MB runtime, lz4 -12 gives 55.9 MB and decompresses
// in 0.09–0.11 s of CPU; zstd -12 with a 128 MB window gives 40.3 MB and needs 0.21–0.30 s (xz: smaller still and
// ten times slower). The stub alone went from 340 to 150 ms of CPU for 15 MB more on disk, well inside the 90 MB
// goal. CEREBRO_BINARY_CODEC=zstd gives the smaller file (the stub reads both: each frame says what it is).
// zstd's level 12: -16 took six minutes for 2 % less; -19 did not finish in ten. The stub links libzstd and liblz4
// statically (Debian's libzstd-dev and liblz4-dev ship the archives), so the executable needs nothing but glibc,
// as Node itself.
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const ZSTD_LEVEL = Number(process.env.CEREBRO_BINARY_ZSTD_LEVEL ?? 12);
const WINDOW_LOG = 27; // the stub allows this window (ZSTD_d_windowLogMax)
export const RUNTIME_CODEC = process.env.CEREBRO_BINARY_CODEC ?? 'lz4';
/** Frames the runtime is cut into (see compressInFrames); the stub takes at most 64. */
const RUNTIME_FRAMES = Number(process.env.CEREBRO_BINARY_RUNTIME_FRAMES ?? 4);
// The trailer's layout is read at run time by the stub (struct trailer) and by deferred-parts.cjs.
const { MAGIC, TRAILER_SIZE } = createRequire(import.meta.url)('./deferred-parts.cjs');

function run(cmd, args) {
  const res = spawnSync(cmd, args, { stdio: 'inherit' });
  if (res.error?.code === 'ENOENT') throw new Error(`${cmd} is missing: install it (.ci/needs-debian.txt lists it)`);
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${res.status ?? res.signal})`);
}

/**
 * The runtime as RUNTIME_FRAMES independent zstd frames of equal stretches, one after the other (each frame records
 * its decompressed size): the stub decompresses them on several CPUs at once. Returns the payload's path.
 */
function compressInFrames(work, runtime) {
  const bytes = readFileSync(runtime);
  const stretch = Math.ceil(bytes.length / RUNTIME_FRAMES);
  const frames = [];
  for (let i = 0; i < RUNTIME_FRAMES; i++) {
    const piece = join(work, `runtime.${i}`);
    writeFileSync(piece, bytes.subarray(i * stretch, (i + 1) * stretch));
    // Both write the decompressed size into the frame, which the stub needs (lz4 only when asked).
    if (RUNTIME_CODEC === 'lz4') run('lz4', ['-q', '-f', '--rm', '-12', '--content-size', piece, `${piece}.c`]);
    else if (RUNTIME_CODEC === 'zstd')
      run('zstd', ['-q', '-f', '--rm', `-${ZSTD_LEVEL}`, `--long=${WINDOW_LOG}`, '-T0', '-o', `${piece}.c`, piece]);
    else throw new Error(`CEREBRO_BINARY_CODEC must be lz4 or zstd, not ${RUNTIME_CODEC}`);
    frames.push(readFileSync(`${piece}.c`));
    rmSync(`${piece}.c`);
  }
  const payload = join(work, 'runtime.comprimido');
  writeFileSync(payload, Buffer.concat(frames));
  return payload;
}

/** The 56 bytes at the end of the executable (struct trailer in stub/cerebro-stub.c; deferred-parts.cjs reads it too). */
export function makeTrailer({ payloadOffset, payloadSize, runtimeSize, partsSize, buildId }) {
  if (!/^[0-9a-f]{16}$/.test(buildId)) throw new Error(`bad build id ${buildId}`);
  const trailer = Buffer.alloc(TRAILER_SIZE);
  trailer.write(MAGIC, 0, 'latin1');
  trailer.writeBigUInt64LE(BigInt(payloadOffset), 8);
  trailer.writeBigUInt64LE(BigInt(payloadSize), 16);
  trailer.writeBigUInt64LE(BigInt(runtimeSize), 24);
  trailer.writeBigUInt64LE(BigInt(partsSize), 32);
  trailer.write(buildId, 40, 'latin1');
  return trailer;
}

/** Compiles the stub, compresses `runtime` and writes the executable to `out`, `parts` (compressed bytes) at its end. */
export function wrapStub({ work, runtime, out, buildId, parts = [] }) {
  if (!/^[0-9a-f]{16}$/.test(buildId)) throw new Error(`bad build id ${buildId}`);
  const stub = join(work, 'cerebro-stub');
  run('cc', [
    '-O2',
    '-s',
    '-Wall',
    '-Werror',
    '-pthread',
    '-o',
    stub,
    join(here, 'stub', 'cerebro-stub.c'),
    '-l:libzstd.a',
    '-l:liblz4.a',
  ]);
  const payload = compressInFrames(work, runtime);

  const stubBytes = readFileSync(stub);
  const payloadSize = statSync(payload).size;
  const trailer = makeTrailer({
    payloadOffset: stubBytes.length,
    payloadSize,
    runtimeSize: statSync(runtime).size,
    partsSize: parts.reduce((sum, p) => sum + p.length, 0),
    buildId,
  });

  rmSync(out, { force: true });
  const fd = openSync(out, 'w', 0o755);
  try {
    writeSync(fd, stubBytes);
    writeSync(fd, readFileSync(payload));
    for (const part of parts) writeSync(fd, part);
    writeSync(fd, trailer);
  } finally {
    closeSync(fd);
  }
  chmodSync(out, 0o755);
  return { codec: RUNTIME_CODEC === 'lz4' ? 'lz4 -12' : `zstd -${ZSTD_LEVEL}` };
}
