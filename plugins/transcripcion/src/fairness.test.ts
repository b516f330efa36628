// Issue #23, item 2: the workers take turns between spaces. A space filling the line must neither refuse another
// space's transcription (its surplus is what gets `ocupado`) nor make it wait for its whole line: the other space's
// audio is transcribed right after the one running when it arrived.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import transcripcion from './index.js';
import { ffmpeg, fixtureDir, speechFiles } from './testing/fixtures.js';
import { writeTinyModel } from './testing/tiny-model.js';

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("transcriptions take turns between spaces: one space's full line delays another's audio by one transcription", async (t) => {
  const fx = await fixtureDir('cerebro-turns-');
  t.after(() => fx.dispose());
  // A fixed decoder (the same work for every 30 s window) on one thread. The audio holding the worker when the
  // neighbour's arrives has two windows, so it is still running however fast the machine is.
  const model = fx.path('tiny.bin');
  writeTinyModel(model, { endAtOnce: true });
  const { wav } = await speechFiles(fx);
  const long = fx.path('largo.wav');
  await ffmpeg('-stream_loop', '-1', '-i', wav!, '-t', '45', long);
  const [short, twoWindows] = [new Blob([await readFile(wav!)]), new Blob([await readFile(long)])];
  const h = await startTestHost(t, {
    plugins: [transcripcion],
    env: {
      CEREBRO_TRANSCRIPCION_MODELO: model,
      CEREBRO_TRANSCRIPCION_WORKERS: '1',
      CEREBRO_TRANSCRIPCION_HILOS: '1',
      CEREBRO_TRANSCRIPCION_COLA: '4',
    },
  });
  await h.admin.createSpace({ id: 'vecino', ownerId: h.ownerId, modules: ['transcripcion'] });
  const post = (space: string, audio = short) => {
    const body = new FormData();
    body.append('archivo', audio);
    return h.client.post(`/mod/transcripcion/${space}/transcripciones`, { body });
  };
  await until(
    async () => (await h.client.get(`/mod/transcripcion/${h.spaceId}/estado`)).body.listo === true,
    'the engine loads the model',
  );
  const operator = (await h.admin.issueOperatorCredential('ops')).token;
  const inFlight = async () => {
    const metrics = (await h.client.get('/metrics', { key: operator })).text;
    return Number(/^cerebro_plugin_transcripcion_en_curso (\d+)$/m.exec(metrics)?.[1]);
  };

  const answered: string[] = [];
  const track = (who: string, reply: ReturnType<typeof post>) =>
    reply.then((r) => {
      answered.push(who);
      return r;
    });
  // The busy space fills the line: one transcribing, four waiting (the capacity).
  const backlog = [track('ocupado', post(h.spaceId, twoWindows))];
  await until(async () => (await inFlight()) === 1, 'the first audio of the busy space in flight');
  for (let i = 0; i < 4; i++) backlog.push(track('ocupado', post(h.spaceId)));
  await until(async () => (await inFlight()) === 5, 'five audios of the busy space in flight');
  const neighbour = track('vecino', post('vecino'));
  await until(async () => (await inFlight()) === 6, "the neighbour's audio admitted past the full line");
  // One more from the busy space is its own surplus: refused.
  const surplus = await post(h.spaceId);
  assert.equal(surplus.status, 503, surplus.text);
  assert.equal(surplus.body.detail.codigo, 'ocupado');

  const [replies, theirs] = await Promise.all([Promise.all(backlog), neighbour]);
  assert.deepEqual(
    [...replies, theirs].map((r) => r.status),
    [200, 200, 200, 200, 200, 200],
  );
  // First come, first served would answer it after all five; in turns, only the one transcribing went before.
  assert.ok(answered.indexOf('vecino') <= 1, `order of answers: ${answered.join(', ')}`);
});
