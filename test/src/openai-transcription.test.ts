import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import transcripcion from '@cerebro/plugin-transcripcion';
import {
  fixtureDir,
  noVoiceFiles,
  speechFiles,
  type FixtureDir,
} from '@cerebro/plugin-transcripcion/dist/testing/fixtures.js';
import { writeTinyModel } from '@cerebro/plugin-transcripcion/dist/testing/tiny-model.js';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';

/** `verbose_json` as Cerebro answers it (the segments carry their id, times and text). */
interface Verbose {
  task: string;
  language: string;
  duration: number;
  text: string;
  segments: { id: number; start: number; end: number; text: string }[];
}

describe('POST /mod/transcripcion/{espacio}/v1/audio/transcriptions through the official openai client', () => {
  let fx: FixtureDir;
  let h: TestHost;
  let speech: Record<string, string>;
  let silence: string;
  let client: OpenAI;

  before(async () => {
    fx = await fixtureDir('cerebro-openai-tx-');
    const model = fx.path('tiny.bin');
    writeTinyModel(model);
    speech = await speechFiles(fx);
    silence = (await noVoiceFiles(fx, 2)).silencio!;
    h = await startTestHost(undefined, {
      plugins: [transcripcion],
      env: { CEREBRO_TRANSCRIPCION_MODELO: model },
    });
    client = new OpenAI({
      baseURL: `${h.url}/api/mod/transcripcion/${h.spaceId}/v1`,
      apiKey: h.writeKey,
      maxRetries: 0,
    });
    // The engine loads in the background; until then the route answers 503 motor_no_listo.
    for (let i = 0; i < 200; i++) {
      const ready = await h.client.get(`/mod/transcripcion/${h.spaceId}/estado`);
      if (ready.body.listo) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail('engine never became ready');
  });
  after(async () => {
    await h.close();
    await fx.dispose();
  });

  it('json (the default): the text, as the contract route transcribes the same audio', async () => {
    const result = await client.audio.transcriptions.create({
      file: createReadStream(speech.ogg!),
      model: 'whisper-1',
      language: 'es',
    });
    const form = new FormData();
    form.append('archivo', new Blob([await readFile(speech.ogg!)]), 'voz.ogg');
    const contract = await h.client.post(`/mod/transcripcion/${h.spaceId}/transcripciones`, { body: form });
    assert.equal(contract.status, 200);
    assert.equal(result.text, contract.body.texto);
    assert.equal(typeof result.text, 'string');
    assert.ok(result.text.length > 0);
    assert.deepEqual(Object.keys(result).sort(), ['text', 'usage']);
  });

  it('verbose_json: language, duration and segments with their times; silence has none', async () => {
    const verbose = (await client.audio.transcriptions.create({
      file: createReadStream(speech.wav!),
      model: 'whisper-1',
      response_format: 'verbose_json',
      timestamp_granularities: ['segment'],
      prompt: 'Transcripción de prueba.',
    })) as unknown as Verbose;
    assert.equal(verbose.task, 'transcribe');
    assert.equal(verbose.language, 'spanish');
    assert.ok(verbose.duration > 3);
    assert.ok(verbose.segments.length > 0);
    let previousEnd = 0;
    for (const [i, s] of verbose.segments.entries()) {
      assert.equal(s.id, i);
      assert.ok(s.start >= previousEnd - 0.001 && s.end >= s.start && s.end <= verbose.duration, JSON.stringify(s));
      previousEnd = s.end;
    }
    assert.equal(verbose.text, verbose.segments.map((s) => s.text).join(' '));

    const quiet = (await client.audio.transcriptions.create({
      file: createReadStream(silence),
      model: 'whisper-1',
      response_format: 'verbose_json',
    })) as unknown as Verbose;
    assert.deepEqual([quiet.text, quiet.segments, quiet.duration], ['', [], 2]);
  });

  it('word granularity: the words with their times, beside the segments', async () => {
    const verbose = (await client.audio.transcriptions.create({
      file: createReadStream(speech.wav!),
      model: 'whisper-1',
      response_format: 'verbose_json',
      timestamp_granularities: ['word'],
    })) as unknown as Verbose & { words: { word: string; start: number; end: number }[] };
    assert.ok(verbose.segments.length > 0);
    assert.ok(verbose.words.length > 0);
    for (const w of verbose.words) {
      assert.ok(w.word.length > 0 && w.word === w.word.trim(), JSON.stringify(w));
      assert.ok(w.start >= 0 && w.end >= w.start && w.end <= verbose.duration, JSON.stringify(w));
    }
    const plain = (await client.audio.transcriptions.create({
      file: createReadStream(speech.wav!),
      model: 'whisper-1',
      response_format: 'verbose_json',
    })) as unknown as Verbose;
    assert.equal('words' in plain, false);
  });

  it('text, srt and vtt come as text in those formats, cue times matching verbose_json', async () => {
    const file = await readFile(speech.mp3!);
    const ask = (response_format: 'text' | 'srt' | 'vtt' | 'verbose_json') =>
      client.audio.transcriptions.create({
        file: new File([file], 'voz.mp3', { type: 'audio/mpeg' }),
        model: 'whisper-1',
        response_format,
      });
    const verbose = (await ask('verbose_json')) as unknown as Verbose;
    const text = (await ask('text')) as unknown as string;
    assert.equal(text, `${verbose.text}\n`);
    const srt = (await ask('srt')) as unknown as string;
    const srtCues = srt.trim().split('\n\n');
    assert.equal(srtCues.length, verbose.segments.length);
    assert.match(srtCues[0]!, /^1\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n.+$/);
    const vtt = (await ask('vtt')) as unknown as string;
    assert.ok(vtt.startsWith('WEBVTT\n\n'));
    const first = verbose.segments[0]!;
    const stamp = (s: number) => new Date(Math.round(s * 1000)).toISOString().slice(11, 23);
    assert.ok(vtt.includes(`${stamp(first.start)} --> ${stamp(first.end)}\n${first.text}\n`), vtt);
  });

  it("errors: OpenAI's error shape beside Cerebro's body, with the statuses the clients map", async () => {
    const notVerbose = await client.audio.transcriptions
      .create({
        file: createReadStream(speech.wav!),
        model: 'whisper-1',
        response_format: 'json',
        timestamp_granularities: ['segment'],
      })
      .catch((e: unknown) => e);
    assert.ok(notVerbose instanceof OpenAI.UnprocessableEntityError);
    assert.match(notVerbose.message, /timestamp_granularities: Las marcas de tiempo solo van en/);

    const form = new FormData();
    form.append('model', 'whisper-1');
    const res = await fetch(`${h.url}/api/mod/transcripcion/${h.spaceId}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.writeKey}` },
      body: form,
    });
    const body = (await res.json()) as { detail: { loc: string[] }[]; error: unknown };
    assert.equal(res.status, 422);
    assert.deepEqual(body.detail[0].loc, ['body', 'file']);
    assert.deepEqual(body.error, {
      message: 'file: Campo obligatorio.',
      type: 'invalid_request_error',
      code: 'validation_failed',
      param: 'file',
    });

    const tooLong = await client.audio.transcriptions
      .create({ file: createReadStream(speech.wav!), model: 'whisper-1', language: 'xx' })
      .catch((e: unknown) => e);
    assert.ok(tooLong instanceof OpenAI.UnprocessableEntityError);
    assert.equal((tooLong.error as { param?: string }).param, 'language');

    const reader = new OpenAI({ baseURL: client.baseURL, apiKey: h.readKey, maxRetries: 0 });
    const readOnly = await reader.audio.transcriptions
      .create({ file: createReadStream(speech.wav!), model: 'whisper-1' })
      .catch((e: unknown) => e);
    assert.ok(readOnly instanceof OpenAI.PermissionDeniedError, 'the same `escribe` permission as /transcripciones');
  });
});
