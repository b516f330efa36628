import { runCommand } from './process.js';
import { whisperAddon } from './whisper-addon.js';

/**
 * Whether the whisper.cpp addon was compiled with AVX/AVX-512 (x86-64): counts instructions on ymm/zmm registers,
 * which baseline x86-64 code never uses. Returns null when it cannot tell (objdump missing, other CPU family).
 */
export async function whisperBuildHasSimd(): Promise<boolean | null> {
  if (process.arch !== 'x64') return null;
  let binary: string;
  try {
    binary = whisperAddon().path;
  } catch {
    return null;
  }
  try {
    const res = await runCommand('objdump', ['-d', '--no-show-raw-insn', binary], {
      timeoutMs: 30_000,
      maxOutput: 256 * 1024 * 1024,
    });
    if (res.code !== 0) return null;
    return /%[yz]mm\d/.test(res.stdout);
  } catch {
    return null;
  }
}
