import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Spanish sentence synthesised by espeak-ng: real speech for the decoder, the VAD and Whisper. */
export const SPEECH_TEXT =
  'Hola, esta es una prueba del servicio de transcripción. El audio se decodifica y se detecta la voz.';

export async function ffmpeg(...args: string[]): Promise<void> {
  await run('ffmpeg', ['-nostdin', '-hide_banner', '-v', 'error', '-y', ...args]);
}

/** A temporary directory removed by `dispose()`. */
export interface FixtureDir {
  dir: string;
  path(name: string): string;
  dispose(): Promise<void>;
}

export async function fixtureDir(prefix = 'cerebro-tx-'): Promise<FixtureDir> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, path: (name) => join(dir, name), dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** Speech as WAV (espeak-ng output) plus every container/codec the contract names, converted with ffmpeg. */
export async function speechFiles(fx: FixtureDir, text = SPEECH_TEXT): Promise<Record<string, string>> {
  const wav = fx.path('speech.wav');
  await run('espeak-ng', ['-v', 'es', '-s', '160', '-w', wav, text]);
  const out: Record<string, string> = { wav };
  const conversions: Array<[string, string[]]> = [
    ['mp3', ['-c:a', 'libmp3lame', '-b:a', '64k']],
    ['ogg', ['-c:a', 'libopus', '-b:a', '32k']],
    ['m4a', ['-c:a', 'aac', '-b:a', '64k']],
    ['flac', ['-c:a', 'flac']],
    ['webm', ['-c:a', 'libopus', '-b:a', '32k']],
  ];
  await Promise.all(
    conversions.map(async ([ext, codec]) => {
      out[ext] = fx.path(`speech.${ext}`);
      await ffmpeg('-i', wav, ...codec, out[ext]!);
    }),
  );
  return out;
}

/** A short MP4 video: with `audio`, its sound track is that file; without, it has no sound track at all. */
export async function videoFile(fx: FixtureDir, name: string, audio?: string): Promise<string> {
  const out = fx.path(name);
  const video = ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10'];
  if (audio) await ffmpeg(...video, '-i', audio, '-shortest', '-c:v', 'mpeg4', '-c:a', 'aac', out);
  else await ffmpeg(...video, '-t', '3', '-c:v', 'mpeg4', out);
  return out;
}

/** Sounds without voice: silence, white and pink noise, a 440 Hz tone, 50 Hz mains hum with harmonics. */
export async function noVoiceFiles(fx: FixtureDir, seconds = 4): Promise<Record<string, string>> {
  const d = String(seconds);
  const sources: Record<string, string> = {
    silencio: `anullsrc=r=16000:cl=mono`,
    ruido_blanco: `anoisesrc=color=white:amplitude=0.3:r=16000:d=${d}`,
    ruido_rosa: `anoisesrc=color=pink:amplitude=0.3:r=16000:d=${d}`,
    tono: `sine=frequency=440:sample_rate=16000:d=${d}`,
    zumbido: `aevalsrc=0.3*sin(2*PI*50*t)+0.15*sin(2*PI*100*t)+0.08*sin(2*PI*150*t):s=16000:d=${d}`,
  };
  const out: Record<string, string> = {};
  await Promise.all(
    Object.entries(sources).map(async ([name, src]) => {
      out[name] = fx.path(`${name}.wav`);
      await ffmpeg('-f', 'lavfi', '-i', src, '-t', d, '-ac', '1', out[name]!);
    }),
  );
  return out;
}

/** The first `fraction` of a file's bytes, as an upload cut off mid-way would leave it. */
export async function truncatedCopy(fx: FixtureDir, source: string, name: string, fraction: number): Promise<string> {
  const bytes = await readFile(source);
  const out = fx.path(name);
  await writeFile(out, bytes.subarray(0, Math.floor(bytes.length * fraction)));
  return out;
}

/** Overwrites every 97th byte after the headers with pseudo-random values. */
export async function damagedCopy(fx: FixtureDir, source: string, name: string): Promise<string> {
  const bytes = Buffer.from(await readFile(source));
  let x = 12345;
  for (let i = 2000; i < bytes.length; i += 97) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = x & 0xff;
  }
  const out = fx.path(name);
  await writeFile(out, bytes);
  return out;
}

/** A tone of the given length, as Opus (small on disk even at two minutes). */
export async function longFile(fx: FixtureDir, name: string, seconds: number): Promise<string> {
  const out = fx.path(name);
  await ffmpeg(
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=300:sample_rate=16000:d=${seconds}`,
    '-c:a',
    'libopus',
    '-b:a',
    '16k',
    out,
  );
  return out;
}
