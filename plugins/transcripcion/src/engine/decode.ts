import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { TranscriptionError } from './errors.js';
import { guardChild, runCommand } from './process.js';
import { sniffContainer, wavDeclaresMoreThan } from './sniff.js';

export const SAMPLE_RATE = 16_000;

export interface DecodeOptions {
  ffmpegPath: string;
  ffprobePath: string;
  /** Cap in seconds; decoding stops as soon as the output passes it. */
  maxDurationS: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface DecodedAudio {
  /** 16 kHz mono float32 samples, in their own (transferable) ArrayBuffer. */
  samples: Float32Array;
  /** Duration of the decoded samples, in seconds (not the container's claim). */
  durationS: number;
}

interface ProbeStream {
  codec_type?: string;
  duration?: string;
}
interface ProbeOutput {
  streams?: ProbeStream[];
  format?: { duration?: string; format_name?: string };
}

// Resampling can add a few samples at the edges; a file of exactly the cap must not be rejected for them.
const CAP_TOLERANCE_SAMPLES = 160;
// A decode that yields less than this share of the container's declared duration is a cut-off file.
const TRUNCATION_RATIO = 0.9;
const TRUNCATION_SLACK_S = 0.25;

/** Decoder messages that mean the stream itself is damaged (ffmpeg prints nothing at `-v error` for sound files). */
const DAMAGE_PATTERN =
  /error while decoding|invalid data|corrupt|ended prematurely|decode_frame\(\) failed|invalid (?:new )?backstep|invalid residual|invalid block|header missing|truncat|end of file/i;

function invalid(detalle: string): TranscriptionError {
  return new TranscriptionError('audio_invalido', detalle);
}

function toolMissing(tool: string, cause: unknown): TranscriptionError {
  return new TranscriptionError('motor_no_listo', `No se encontró ${tool} para decodificar el audio.`, { cause });
}

async function readHead(filePath: string): Promise<{ head: Uint8Array; size: number }> {
  const handle = await open(filePath, 'r');
  try {
    const { size } = await handle.stat();
    const head = new Uint8Array(Math.min(size, 4096));
    if (head.length > 0) await handle.read(head, 0, head.length, 0);
    return { head, size };
  } finally {
    await handle.close();
  }
}

function parseSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/**
 * Decodes any audio (or a video's first sound track) to 16 kHz mono float32 with ffmpeg, classifying failures:
 * not audio / no sound track → `no_soportado`; empty, truncated or damaged → `audio_invalido`; longer than
 * `maxDurationS` → `demasiado_largo`, found while streaming (ffmpeg is killed at the cap, nothing is transcribed).
 * Writes no file: ffmpeg's output is read from a pipe.
 */
export async function decodeAudio(filePath: string, options: DecodeOptions): Promise<DecodedAudio> {
  options.signal?.throwIfAborted();
  const { head, size } = await readHead(filePath);
  if (size === 0) throw invalid('El archivo de audio está vacío.');
  const container = sniffContainer(head);

  // ffprobe (what the file is) and ffmpeg (the samples) run side by side: each costs ~60 ms of process start-up,
  // and the probe is only needed to classify the outcome once decoding has ended.
  const [probe, decoded] = await Promise.all([probeFile(filePath, options), runDecoder(filePath, options)]);

  if (probe === null) {
    if (container !== null) throw invalid('El audio está dañado o incompleto y no se pudo abrir.');
    throw new TranscriptionError('no_soportado', 'El archivo no es un audio reconocible.');
  }
  const streams = probe.streams ?? [];
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!audio) {
    throw new TranscriptionError(
      'no_soportado',
      streams.some((s) => s.codec_type === 'video')
        ? 'El archivo no tiene pista de sonido.'
        : 'El archivo no es un audio reconocible.',
    );
  }
  if (container === 'wav' && wavDeclaresMoreThan(head, size)) {
    throw invalid('El audio WAV está incompleto: el archivo termina antes de lo que declara.');
  }
  if (decoded.capped) {
    throw new TranscriptionError(
      'demasiado_largo',
      `El audio dura más de ${formatSeconds(options.maxDurationS)} segundos, el máximo permitido.`,
    );
  }
  if (decoded.timedOut) throw invalid('No se pudo decodificar el audio en el tiempo permitido.');
  if (decoded.code !== 0) throw invalid('El audio está dañado y no se pudo decodificar.');
  if (DAMAGE_PATTERN.test(decoded.stderr))
    throw invalid('El audio está dañado: hay partes que no se pueden decodificar.');
  const { samples } = decoded;
  if (samples.length === 0) throw invalid('El audio no contiene muestras de sonido decodificables.');
  const durationS = samples.length / SAMPLE_RATE;
  const claimedS = parseSeconds(audio.duration) ?? parseSeconds(probe.format?.duration);
  if (claimedS !== undefined && durationS < claimedS * TRUNCATION_RATIO - TRUNCATION_SLACK_S) {
    throw invalid('El audio está incompleto: termina antes de la duración que declara.');
  }
  return { samples, durationS };
}

/** ffprobe's view of the file, or null when it cannot open it at all. */
async function probeFile(filePath: string, options: DecodeOptions): Promise<ProbeOutput | null> {
  let res;
  try {
    res = await runCommand(
      options.ffprobePath,
      [
        '-v',
        'error',
        '-show_entries',
        'format=duration,format_name:stream=codec_type,duration',
        '-of',
        'json',
        filePath,
      ],
      { timeoutMs: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) },
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw toolMissing('ffprobe', err);
    throw err;
  }
  options.signal?.throwIfAborted();
  if (res.code !== 0) return null;
  try {
    return JSON.parse(res.stdout) as ProbeOutput;
  } catch {
    return null;
  }
}

function formatSeconds(s: number): string {
  return Number.isInteger(s) ? String(s) : s.toFixed(2);
}

function runDecoder(
  filePath: string,
  options: DecodeOptions,
): Promise<{ samples: Float32Array; stderr: string; capped: boolean; timedOut: boolean; code: number | null }> {
  const capSamples = Math.ceil(options.maxDurationS * SAMPLE_RATE) + CAP_TOLERANCE_SAMPLES;
  // One buffer sized for the cap (7.7 MB at 120 s): chunks are copied in as they arrive, no concatenation.
  const buffer = new Uint8Array((capSamples + 1) * 4);
  let filled = 0;
  let capped = false;
  let stderr = '';

  return new Promise((resolve, reject) => {
    const args = [
      '-nostdin',
      '-hide_banner',
      '-v',
      'error',
      '-i',
      filePath,
      '-map',
      '0:a:0',
      '-vn',
      '-sn',
      '-dn',
      '-ac',
      '1',
      '-ar',
      String(SAMPLE_RATE),
      '-f',
      'f32le',
      'pipe:1',
    ];
    const child = spawn(options.ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const guard = guardChild(child, options);

    child.stdout.on('data', (chunk: Buffer) => {
      if (capped) return;
      const room = buffer.length - filled;
      if (chunk.length >= room) {
        // Past the cap: stop decoding now instead of reading the rest of the file.
        capped = true;
        child.kill('SIGKILL');
        return;
      }
      buffer.set(chunk, filled);
      filled += chunk.length;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < 16_384) stderr += d;
    });
    child.on('error', (err) => {
      guard.settle(() => reject((err as NodeJS.ErrnoException).code === 'ENOENT' ? toolMissing('ffmpeg', err) : err));
    });
    child.on('close', (code) => {
      guard.settle(() => {
        if (options.signal?.aborted) return reject(options.signal.reason);
        const timedOut = guard.timedOut();
        if (capped || timedOut || code !== 0) {
          return resolve({ samples: new Float32Array(0), stderr, capped, timedOut, code });
        }
        const count = Math.floor(filled / 4);
        // Copy into an exact-size buffer: it is transferred to a worker and must not drag the cap-sized one.
        const samples = new Float32Array(count);
        new Uint8Array(samples.buffer).set(buffer.subarray(0, count * 4));
        resolve({ samples, stderr, capped: false, timedOut: false, code });
      });
    });
  });
}
