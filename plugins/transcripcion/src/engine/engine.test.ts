import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TranscriptionEngine, type TranscriptionResult } from './engine.js';
import { TranscriptionError } from './errors.js';
import { writeTinyModel } from '../testing/tiny-model.js';
import {
  fixtureDir,
  longFile,
  noVoiceFiles,
  speechFiles,
  truncatedCopy,
  videoFile,
  type FixtureDir,
} from '../testing/fixtures.js';

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(err instanceof TranscriptionError, `expected a TranscriptionError, got ${String(err)}`);
  return err.codigo;
}

function assertResultShape(r: TranscriptionResult): void {
  assert.deepEqual(Object.keys(r).sort(), ['duracion_s', 'idioma', 'latencia_ms', 'texto', 'vacio']);
  assert.equal(typeof r.texto, 'string');
  assert.ok(Number.isInteger(r.latencia_ms) && r.latencia_ms >= 0);
  assert.equal(r.duracion_s, Math.round(r.duracion_s * 100) / 100);
}

describe('TranscriptionEngine', () => {
  let fx: FixtureDir;
  let model: string;
  let speech: Record<string, string>;
  let noVoice: Record<string, string>;
  let engine: TranscriptionEngine;
  let scratchTmp: string;
  const originalTmp = process.env.TMPDIR;
  let fixtureListing: string[];

  before(async () => {
    fx = await fixtureDir('cerebro-engine-');
    model = fx.path('tiny.bin');
    writeTinyModel(model);
    [speech, noVoice] = await Promise.all([speechFiles(fx), noVoiceFiles(fx, 3)]);
    speech.mp4 = await videoFile(fx, 'video.mp4', speech.wav);
    speech.mute = await videoFile(fx, 'mudo.mp4');
    speech.long = await longFile(fx, 'largo.ogg', 121);
    speech.cut = await truncatedCopy(fx, speech.mp3!, 'cortado.mp3', 0.5);
    fixtureListing = (await readdir(fx.dir)).sort();
    // Everything from here on runs with an empty TMPDIR: the engine and its ffmpeg children must leave it empty.
    scratchTmp = await mkdtemp(join(tmpdir(), 'cerebro-engine-tmp-'));
    process.env.TMPDIR = scratchTmp;
    engine = new TranscriptionEngine({ modelPath: model, workers: 1, maxQueue: 1, temperatureInc: 0, testHooks: true });
  });

  after(async () => {
    await engine.close();
    if (originalTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = originalTmp;
    await rm(scratchTmp, { recursive: true, force: true });
    await fx.dispose();
  });

  it('answers motor_no_listo while loading, then becomes ready with a SIMD build', async () => {
    assert.equal(engine.status().state, 'stopped');
    assert.equal(await codeOf(engine.transcribe(speech.wav!)), 'motor_no_listo');
    const starting = engine.start();
    assert.equal(engine.status().state, 'loading');
    const err = await engine.transcribe(speech.wav!).catch((e: unknown) => e);
    assert.ok(err instanceof TranscriptionError && err.codigo === 'motor_no_listo' && err.httpStatus === 503);
    assert.ok((err.retryAfterS ?? 0) > 0);
    const status = await starting;
    assert.equal(status.state, 'ready', status.reason ?? '');
    assert.equal(status.model?.sizeName, 'tiny');
    for (let i = 0; i < 100 && engine.status().simd === null; i++) await new Promise((r) => setTimeout(r, 100));
    if (process.arch === 'x64') assert.equal(engine.status().simd, true, 'whisper.cpp built without SIMD');
  });

  it('transcribes speech in every format and a video sound track', async () => {
    const first = await engine.transcribe(speech.wav!, { idioma: 'es' });
    assertResultShape(first);
    assert.equal(first.vacio, false);
    assert.equal(first.idioma, 'es');
    assert.ok(first.duracion_s > 3);
    for (const ext of ['mp3', 'ogg', 'm4a', 'flac', 'webm', 'mp4']) {
      const r = await engine.transcribe(speech[ext]!);
      assertResultShape(r);
      assert.equal(r.vacio, false, ext);
      assert.equal(r.idioma, 'es');
      assert.ok(Math.abs(r.duracion_s - first.duracion_s) < 0.3, `${ext}: ${r.duracion_s} vs ${first.duracion_s}`);
    }
    const en = await engine.transcribe(speech.ogg!, { idioma: 'en' });
    assert.equal(en.idioma, 'en');
  });

  it('returns vacio without running Whisper for silence, noise, a tone and hum', async () => {
    for (const [name, file] of Object.entries(noVoice)) {
      const r = await engine.transcribe(file);
      assertResultShape(r);
      assert.deepEqual({ texto: r.texto, vacio: r.vacio }, { texto: '', vacio: true }, name);
      assert.equal(r.duracion_s, 3);
    }
  });

  it('applies the duration cap and duracion_max_s', async () => {
    assert.equal(await codeOf(engine.transcribe(speech.long!)), 'demasiado_largo');
    assert.equal(await codeOf(engine.transcribe(speech.long!, { duracionMaxS: 500 })), 'demasiado_largo');
    assert.equal(await codeOf(engine.transcribe(speech.wav!, { duracionMaxS: 2 })), 'demasiado_largo');
    assert.equal((await engine.transcribe(noVoice.tono!, { duracionMaxS: 500 })).vacio, true);
    await assert.rejects(engine.transcribe(speech.wav!, { duracionMaxS: 0.5 }), RangeError);
    await assert.rejects(engine.transcribe(speech.wav!, { duracionMaxS: Number.NaN }), RangeError);
    await assert.rejects(engine.transcribe(speech.wav!, { idioma: 'xx' }), RangeError);
  });

  it('classifies bad inputs', async () => {
    assert.equal(await codeOf(engine.transcribe(speech.mute!)), 'no_soportado');
    assert.equal(await codeOf(engine.transcribe(speech.cut!)), 'audio_invalido');
    const empty = fx.path('vacio.ogg');
    await writeFile(empty, '');
    assert.equal(await codeOf(engine.transcribe(empty)), 'audio_invalido');
    await rm(empty);
  });

  it('answers ocupado at once when the workers and the queue are full, serving the others in order', async () => {
    const order: string[] = [];
    const a = engine.transcribe(speech.wav!).then((r) => (order.push('a'), r));
    const b = engine.transcribe(speech.ogg!).then((r) => (order.push('b'), r));
    assert.equal(engine.status().inFlight, 2);
    const c = await engine.transcribe(speech.mp3!).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(c instanceof TranscriptionError && c.codigo === 'ocupado' && c.httpStatus === 503);
    assert.equal(order.length, 0, 'ocupado must not wait for the running work');
    const [ra, rb] = await Promise.all([a, b]);
    assert.equal(ra.vacio, false);
    assert.equal(rb.vacio, false);
    assert.deepEqual(order, ['a', 'b']);
    assert.equal(engine.status().inFlight, 0);
  });

  it('fails the request of a crashed worker with a 503 and keeps serving with a new worker', async () => {
    engine.crashNextTaskForTest();
    assert.equal(await codeOf(engine.transcribe(speech.wav!)), 'motor_no_listo');
    const r = await engine.transcribe(speech.wav!);
    assert.equal(r.vacio, false);
    assert.equal(engine.status().state, 'ready');
  });

  it('honours an abort signal while waiting', async () => {
    const ac = new AbortController();
    ac.abort(new Error('cliente desconectado'));
    await assert.rejects(engine.transcribe(speech.wav!, { signal: ac.signal }), /cliente desconectado/);
  });

  it('leaves no file behind: the temp dir stays empty and the inputs untouched', async () => {
    assert.deepEqual(await readdir(scratchTmp), []);
    assert.deepEqual((await readdir(fx.dir)).sort(), fixtureListing);
  });
});

describe('TranscriptionEngine without a usable model', () => {
  let fx: FixtureDir;
  before(async () => {
    fx = await fixtureDir('cerebro-nomodel-');
  });
  after(() => fx.dispose());

  it('reports no_model and answers motor_no_listo when no model is installed, and starts once one is installed', async () => {
    const engine = new TranscriptionEngine({ modelPath: fx.path('falta.bin'), watchModelMs: 50 });
    const status = await engine.start();
    assert.equal(status.state, 'no_model');
    assert.match(status.reason ?? '', /ningún modelo/);
    const err = await engine.transcribe(fx.path('x.wav')).catch((e: unknown) => e);
    assert.ok(err instanceof TranscriptionError && err.codigo === 'motor_no_listo');
    const { installModel } = await import('./installer.js');
    const source = fx.path('origen.bin');
    writeTinyModel(source);
    await installModel({ source, dest: fx.path('falta.bin') });
    for (let i = 0; i < 200 && engine.status().state !== 'ready'; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(engine.status().state, 'ready');
    await engine.close();
    assert.equal(engine.status().state, 'closed');
  });

  it('reports failed for a corrupt model instead of crashing, and recovers once a good one is installed', async () => {
    const path = fx.path('corrupto.bin');
    writeTinyModel(path);
    const { open } = await import('node:fs/promises');
    const h = await open(path, 'r+');
    await h.write(Buffer.from([0, 0, 0, 0]), 0, 4, 0); // wipe the ggml magic
    await h.close();
    const engine = new TranscriptionEngine({ modelPath: path, temperatureInc: 0 });
    const status = await engine.start();
    assert.equal(status.state, 'failed');
    assert.match(status.reason ?? '', /firma/);
    assert.equal(await codeOf(engine.transcribe(path)), 'motor_no_listo');
    writeTinyModel(path);
    assert.equal((await engine.start()).state, 'ready');
    await engine.close();
  });

  it('survives a model overwritten while running: the replacement worker fails fast, start() recovers', async () => {
    const path = fx.path('cambiado.bin');
    writeTinyModel(path);
    const { speechFiles: makeSpeech } = await import('../testing/fixtures.js');
    const { wav } = await makeSpeech(fx, 'Hola, esto es una prueba.');
    const engine = new TranscriptionEngine({ modelPath: path, temperatureInc: 0, testHooks: true });
    assert.equal((await engine.start()).state, 'ready');
    await writeFile(path, 'ya no es un modelo');
    engine.crashNextTaskForTest(); // the worker dies; its replacement must load the (now broken) file
    assert.equal(await codeOf(engine.transcribe(wav!)), 'motor_no_listo');
    assert.equal(await codeOf(engine.transcribe(wav!)), 'motor_no_listo');
    assert.equal(engine.status().state, 'failed');
    assert.match(engine.status().reason ?? '', /firma|pequeño/);
    writeTinyModel(path);
    assert.equal((await engine.start()).state, 'ready');
    assert.equal((await engine.transcribe(wav!)).vacio, false);
    await engine.close();
  });

  it('runs ffmpeg and ffprobe only once there is a model: without one a start only looks them up', async (t) => {
    // Stand-ins that say they ran and then behave as the real tool asked for its version.
    const ran = fx.path('ejecutados.txt');
    const stand = async (name: string) => {
      const file = fx.path(name);
      await writeFile(file, `#!/bin/sh\necho ${name} >> '${ran}'\nexec ${name} "$@"\n`, { mode: 0o755 });
      return file;
    };
    const tools = { ffmpegPath: await stand('ffmpeg'), ffprobePath: await stand('ffprobe') };
    const modelPath = fx.path('aun-no.bin');
    const engine = new TranscriptionEngine({ modelPath, ...tools, watchModelMs: 50 });
    t.after(() => engine.close());
    assert.equal((await engine.start()).state, 'no_model');
    assert.equal(existsSync(ran), false, 'no tool run without a model');
    writeTinyModel(modelPath);
    for (let i = 0; i < 200 && engine.status().state !== 'ready'; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(engine.status().state, 'ready');
    assert.deepEqual((await readFile(ran, 'utf8')).trim().split('\n').sort(), ['ffmpeg', 'ffprobe']);
  });

  it('reports a tool missing from the PATH before the missing model, without running anything', async () => {
    const engine = new TranscriptionEngine({ modelPath: fx.path('tampoco.bin'), ffprobePath: 'no-existe-ffprobe' });
    const status = await engine.start();
    assert.equal(status.state, 'failed');
    assert.match(status.reason ?? '', /no-existe-ffprobe/);
    await engine.close();
  });

  it('reports failed when ffmpeg is missing', async () => {
    const engine = new TranscriptionEngine({ modelPath: fx.path('falta.bin'), ffmpegPath: '/nonexistent/ffmpeg' });
    const status = await engine.start();
    assert.equal(status.state, 'failed');
    assert.match(status.reason ?? '', /ffmpeg/);
    await engine.close();
  });
});

describe('TranscriptionEngine with a deterministic decoder', () => {
  it('returns the text whisper.cpp decodes, one segment per 30 s window, joined', async (t) => {
    const fx = await fixtureDir('cerebro-fixed-');
    t.after(() => fx.dispose());
    const model = fx.path('fijo.bin');
    const { fixedWord } = writeTinyModel(model, { endAtOnce: true });
    const { wav } = await speechFiles(fx);
    const { ffmpeg } = await import('../testing/fixtures.js');
    const long = fx.path('largo.wav');
    await ffmpeg('-stream_loop', '-1', '-i', wav!, '-t', '45', long); // two 30 s windows
    const engine = new TranscriptionEngine({ modelPath: model, temperatureInc: 0 });
    t.after(() => engine.close());
    assert.equal((await engine.start()).state, 'ready');
    const word = fixedWord.trim();
    assert.ok(word.length > 0);
    assert.deepEqual(await engine.transcribe(wav!).then((r) => [r.texto, r.vacio]), [word, false]);
    const r = await engine.transcribe(long);
    assert.equal(r.texto, `${word} ${word}`);
    assert.equal(r.duracion_s, 45);
  });
});
