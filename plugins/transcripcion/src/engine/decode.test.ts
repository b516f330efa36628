import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { decodeAudio, type DecodeOptions } from './decode.js';
import { TranscriptionError } from './errors.js';
import {
  damagedCopy,
  fixtureDir,
  longFile,
  speechFiles,
  truncatedCopy,
  videoFile,
  type FixtureDir,
} from '../testing/fixtures.js';

const opts: DecodeOptions = { ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', maxDurationS: 120, timeoutMs: 30_000 };

async function rejectsWith(promise: Promise<unknown>, codigo: string): Promise<TranscriptionError> {
  const err = await promise.then(
    () => assert.fail(`expected ${codigo}`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof TranscriptionError, `not a TranscriptionError: ${String(err)}`);
  assert.equal(err.codigo, codigo, err.detalle);
  assert.match(err.detalle, /^[A-ZÁÉÍÓÚÑ].*\.$/); // one Spanish sentence
  return err;
}

describe('decodeAudio', () => {
  let fx: FixtureDir;
  let speech: Record<string, string>;
  let speechS: number;

  before(async () => {
    fx = await fixtureDir();
    speech = await speechFiles(fx);
    speechS = (await decodeAudio(speech.wav!, opts)).durationS;
  });
  after(() => fx.dispose());

  it('decodes every contract format to 16 kHz mono float32 of the same length', async () => {
    assert.ok(speechS > 3 && speechS < 12, `espeak clip of ${speechS}s`);
    for (const ext of ['mp3', 'ogg', 'm4a', 'flac', 'webm']) {
      const { samples, durationS } = await decodeAudio(speech[ext]!, opts);
      assert.ok(samples instanceof Float32Array);
      assert.equal(durationS, samples.length / 16_000);
      assert.ok(Math.abs(durationS - speechS) < 0.15, `${ext}: ${durationS}s vs ${speechS}s`);
      const peak = samples.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
      assert.ok(peak > 0.05 && peak <= 1.5, `${ext}: peak ${peak}`);
    }
  });

  it("takes a video's sound track, and rejects a video without one as no_soportado", async () => {
    const withSound = await videoFile(fx, 'con-sonido.mp4', speech.wav);
    const { durationS } = await decodeAudio(withSound, opts);
    assert.ok(Math.abs(durationS - speechS) < 0.3, `${durationS} vs ${speechS}`);
    const mute = await videoFile(fx, 'sin-sonido.mp4');
    const err = await rejectsWith(decodeAudio(mute, opts), 'no_soportado');
    assert.match(err.detalle, /pista de sonido/);
  });

  it('rejects files that are not audio as no_soportado', async () => {
    const text = fx.path('notas.txt');
    await writeFile(text, 'Esto es un documento de texto, no un audio.\n'.repeat(50));
    await rejectsWith(decodeAudio(text, opts), 'no_soportado');
    const json = fx.path('datos.json');
    await writeFile(json, JSON.stringify({ a: 1, b: [1, 2, 3] }));
    await rejectsWith(decodeAudio(json, opts), 'no_soportado');
  });

  it('rejects empty, truncated and damaged audio as audio_invalido', async () => {
    const empty = fx.path('vacio.mp3');
    await writeFile(empty, '');
    await rejectsWith(decodeAudio(empty, opts), 'audio_invalido');
    // MP3 cut in half: ffprobe still claims the full duration; the decoded length gives it away.
    await rejectsWith(decodeAudio(await truncatedCopy(fx, speech.mp3!, 'cortado.mp3', 0.5), opts), 'audio_invalido');
    // WAV cut off: its header declares more data than the file holds.
    await rejectsWith(decodeAudio(await truncatedCopy(fx, speech.wav!, 'cortado.wav', 0.4), opts), 'audio_invalido');
    // M4A cut before its index (moov): a known container ffmpeg cannot open.
    await rejectsWith(decodeAudio(await truncatedCopy(fx, speech.m4a!, 'cortado.m4a', 0.3), opts), 'audio_invalido');
    // A WAV header alone.
    await rejectsWith(
      decodeAudio(await truncatedCopy(fx, speech.wav!, 'cabecera.wav', 0.0001), opts),
      'audio_invalido',
    );
    await rejectsWith(decodeAudio(await damagedCopy(fx, speech.mp3!, 'danado.mp3'), opts), 'audio_invalido');
    await rejectsWith(decodeAudio(await damagedCopy(fx, speech.flac!, 'danado.flac'), opts), 'audio_invalido');
  });

  it('stops at the duration cap with demasiado_largo (121 s against 120 s, and a caller cap)', async () => {
    const long = await longFile(fx, 'largo.ogg', 121);
    const err = await rejectsWith(decodeAudio(long, opts), 'demasiado_largo');
    assert.match(err.detalle, /120 segundos/);
    const ok = await longFile(fx, 'justo.ogg', 119);
    assert.ok(Math.abs((await decodeAudio(ok, opts)).durationS - 119) < 0.05);
    await rejectsWith(decodeAudio(speech.ogg!, { ...opts, maxDurationS: 2 }), 'demasiado_largo');
    const capped = await decodeAudio(speech.ogg!, { ...opts, maxDurationS: Math.ceil(speechS) + 1 });
    assert.ok(capped.durationS > 3);
  });

  it('reports a missing ffmpeg as motor_no_listo, and honours an abort signal', async () => {
    await rejectsWith(decodeAudio(speech.wav!, { ...opts, ffprobePath: '/nonexistent/ffprobe' }), 'motor_no_listo');
    await rejectsWith(decodeAudio(speech.wav!, { ...opts, ffmpegPath: '/nonexistent/ffmpeg' }), 'motor_no_listo');
    const ac = new AbortController();
    ac.abort(new Error('cancelado'));
    await assert.rejects(decodeAudio(speech.wav!, { ...opts, signal: ac.signal }), /cancelado/);
  });
});
