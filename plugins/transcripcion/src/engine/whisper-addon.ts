import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Which whisper.cpp build this process loads. A portable install (the single executable) ships two builds of the
 * addon: `build/x86-64-v3/` (AVX2 and FMA, several times faster) and `build/x86-64/` (runs on every x86-64 CPU);
 * code compiled for v3 dies with SIGILL on an older CPU, so the choice follows the CPU's flags. An install built on
 * its own machine (`-march=native`) has only `build/Release/`.
 */
export interface WhisperAddon {
  path: string;
  /** `x86-64-v3`, `x86-64`, or `local` for the build made on this machine. */
  build: string;
}

/** Every instruction set x86-64-v3 adds to v2, by its name in /proc/cpuinfo (`abm` is LZCNT). */
const V3_FLAGS = ['avx', 'avx2', 'bmi1', 'bmi2', 'f16c', 'fma', 'abm', 'movbe'];

/** Whether a CPU described by /proc/cpuinfo runs x86-64-v3 code (every core must: flags are read per line). */
export function cpuRunsX8664V3(cpuinfo: string): boolean {
  const lines = cpuinfo.split('\n').filter((l) => /^flags\s*:/.test(l));
  return (
    lines.length > 0 &&
    lines.every((line) => {
      const flags = new Set(line.split(':')[1]!.trim().split(/\s+/));
      return V3_FLAGS.every((f) => flags.has(f));
    })
  );
}

/** Picks the build from the folders present in the smart-whisper package and the CPU description. */
export function chooseWhisperAddon(packageDir: string, cpuinfo: string): WhisperAddon {
  const variant = (build: string): WhisperAddon => ({
    path: join(packageDir, 'build', build, 'smart-whisper.node'),
    build,
  });
  const fast = variant('x86-64-v3');
  if (existsSync(fast.path) && cpuRunsX8664V3(cpuinfo)) return fast;
  const baseline = variant('x86-64');
  if (existsSync(baseline.path)) return baseline;
  return { path: join(packageDir, 'build', 'Release', 'smart-whisper.node'), build: 'local' };
}

let chosen: WhisperAddon | undefined;

/** The build for this machine (decided once per thread). */
export function whisperAddon(): WhisperAddon {
  if (!chosen) {
    const packageDir = dirname(createRequire(import.meta.url).resolve('smart-whisper/package.json'));
    let cpuinfo = '';
    try {
      cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
    } catch {
      // Not Linux: only the baseline or local build can be trusted.
    }
    chosen = chooseWhisperAddon(packageDir, cpuinfo);
  }
  return chosen;
}
