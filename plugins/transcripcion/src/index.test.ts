import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { KeepAliveClient, multipartBytes, startTestHost, type TestHost } from '@cerebro/sdk/testing';
import transcripcion from './index.js';
import { writeTinyModel } from './testing/tiny-model.js';
import { fixtureDir, noVoiceFiles, speechFiles, type FixtureDir } from './testing/fixtures.js';

function form(fields: Record<string, string | Blob>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

async function audioBlob(path: string, type = 'application/octet-stream'): Promise<Blob> {
  return new Blob([await readFile(path)], { type });
}

/** Upload temp folders live under `<data dir>/tmp/<process>/`; every request must leave none behind. */
async function leftovers(h: TestHost): Promise<string[]> {
  const entries = await readdir(join(h.dataDir, 'tmp'), { recursive: true }).catch(() => [] as string[]);
  return entries.filter((p) => p.includes('upload-'));
}

describe('POST /transcripciones', () => {
  let fx: FixtureDir;
  let model: string;
  let speech: Record<string, string>;
  let silence: string;
  let h: TestHost;
  let path: string;

  before(async () => {
    fx = await fixtureDir('cerebro-route-');
    model = fx.path('tiny.bin');
    writeTinyModel(model);
    speech = await speechFiles(fx);
    silence = (await noVoiceFiles(fx, 2)).silencio!;
    h = await startTestHost(undefined, {
      plugins: [transcripcion],
      env: { CEREBRO_TRANSCRIPCION_MODELO: model, CEREBRO_TRANSCRIPCION_COLA: '0' },
    });
    path = `/mod/transcripcion/${h.spaceId}/transcripciones`;
  });
  after(async () => {
    await h.close();
    await fx.dispose();
  });

  /** The engine loads in the background; until then the route answers 503 motor_no_listo. */
  async function untilReady(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const res = await h.client.post(path, { body: form({ archivo: await audioBlob(silence) }) });
      if (res.status === 200) return;
      assert.equal(res.status, 503);
      assert.equal(res.body.detail.codigo, 'motor_no_listo');
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail('engine never became ready');
  }

  it('transcribes an uploaded audio in the same request', async () => {
    await untilReady();
    const res = await h.client.post(path, {
      body: form({ archivo: await audioBlob(speech.ogg!, 'audio/ogg'), idioma: 'es' }),
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['duracion_s', 'idioma', 'latencia_ms', 'texto', 'vacio']);
    assert.equal(res.body.vacio, false);
    assert.equal(res.body.idioma, 'es');
    assert.ok(res.body.duracion_s > 3);
    assert.ok(Number.isInteger(res.body.latencia_ms));
    const quiet = await h.client.post(path, { body: form({ archivo: await audioBlob(silence) }) });
    assert.equal(quiet.status, 200);
    assert.deepEqual([quiet.body.texto, quiet.body.vacio, quiet.body.duracion_s], ['', true, 2]);
    assert.deepEqual(await leftovers(h), []);
  });

  it('answers 422 with a list detail for a missing archivo or invalid fields', async () => {
    const missing = await h.client.post(path, { body: form({ idioma: 'es' }) });
    assert.equal(missing.status, 422);
    assert.ok(Array.isArray(missing.body.detail));
    assert.deepEqual(missing.body.detail[0].loc, ['body', 'archivo']);
    const notMultipart = await h.client.post(path, { json: { archivo: 'x' } });
    assert.equal(notMultipart.status, 422);
    assert.ok(Array.isArray(notMultipart.body.detail));
    const badCap = await h.client.post(path, {
      body: form({ archivo: await audioBlob(speech.wav!), duracion_max_s: '0.5' }),
    });
    assert.equal(badCap.status, 422);
    assert.deepEqual(badCap.body.detail[0].loc, ['body', 'duracion_max_s']);
    const badLang = await h.client.post(path, {
      body: form({ archivo: await audioBlob(speech.wav!), idioma: 'espanol' }),
    });
    assert.equal(badLang.status, 422);
    assert.deepEqual(badLang.body.detail[0].loc, ['body', 'idioma']);
    assert.deepEqual(await leftovers(h), []);
  });

  it('maps audio errors to 422 with codigo and detalle', async () => {
    const long = await h.client.post(path, {
      body: form({ archivo: await audioBlob(speech.wav!), duracion_max_s: '2' }),
    });
    assert.equal(long.status, 422);
    assert.equal(long.body.detail.codigo, 'demasiado_largo');
    assert.equal(typeof long.body.detail.detalle, 'string');
    const capped = await h.client.post(path, {
      body: form({ archivo: await audioBlob(silence), duracion_max_s: '900' }),
    });
    assert.equal(capped.status, 200);
    const text = await h.client.post(path, { body: form({ archivo: new Blob(['esto no es audio']) }) });
    assert.equal(text.status, 422);
    assert.equal(text.body.detail.codigo, 'no_soportado');
    const empty = new FormData();
    empty.append('archivo', new Blob([]), 'vacio.ogg');
    const emptyRes = await h.client.post(path, { body: empty });
    assert.equal(emptyRes.status, 422);
    assert.equal(emptyRes.body.detail.codigo, 'audio_invalido');
    assert.deepEqual(await leftovers(h), []);
  });

  it('accepts exactly 25 MB and refuses one byte more with 413 demasiado_grande (the limit is inclusive)', async () => {
    const max = 25 * 1024 * 1024;
    for (const delta of [-1, 0]) {
      // Zeros are no audio: past the size check, the format check refuses them.
      const res = await h.client.post(path, { body: form({ archivo: new Blob([new Uint8Array(max + delta)]) }) });
      assert.equal(res.status, 422, `${max + delta} bytes: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.detail.codigo, 'no_soportado');
    }
    const big = new Blob([new Uint8Array(max + 1)]);
    const res = await h.client.post(path, { body: form({ archivo: big }) });
    assert.equal(res.status, 413);
    assert.equal(res.body.detail.codigo, 'demasiado_grande');
    assert.deepEqual(await leftovers(h), []);
  });

  it('answers two audios with 422 and keeps the keep-alive connection usable for the next request', async () => {
    const client = new KeepAliveClient(`${h.url}/api`, h.writeKey);
    try {
      const audio = await audioBlob(speech.wav!);
      const two = new FormData();
      two.append('archivo', audio, 'uno.wav');
      two.append('archivo', audio, 'dos.wav');
      const { body, contentType } = await multipartBytes(two);
      const refused = await client.request('POST', path, { body, headers: { 'content-type': contentType } });
      assert.equal(refused.status, 422, refused.text);
      assert.equal(JSON.parse(refused.text).detail[0].type, 'too_many_files');
      const next = await client.request('GET', `/rag/${h.spaceId}/indexing_status`);
      assert.equal(next.status, 200, next.text);
      // Either the rest of the body was drained and the same connection carried the next request, or the server said so.
      if (refused.headers.connection !== 'close') assert.equal(next.reusedSocket, true);
      assert.deepEqual(await leftovers(h), []);
    } finally {
      client.close();
    }
  });

  it('stops reading a chunked upload as soon as it passes 25 MB', async () => {
    const { request } = await import('node:http');
    const boundary = 'limite-de-prueba';
    const url = new URL(`${h.url}/api${path}`);
    const total = 40 * 1024 * 1024;
    let sent = 0;
    let answered = false;
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${h.writeKey}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'transfer-encoding': 'chunked',
        },
      });
      req.on('response', (r) => {
        answered = true; // stop sending: the answer is in
        let body = '';
        r.setEncoding('utf8')
          .on('data', (d: string) => {
            body += d;
          })
          .on('end', () => {
            resolve({ status: r.statusCode ?? 0, body });
            req.destroy();
          });
      });
      req.on('error', (err) => (sent < total ? undefined : reject(err)));
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="archivo"; filename="a.ogg"\r\nContent-Type: audio/ogg\r\n\r\n`,
      );
      const chunk = Buffer.alloc(256 * 1024);
      const pump = (): void => {
        while (sent < total && !answered && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!answered && !req.destroyed) req.end(`\r\n--${boundary}--\r\n`);
      };
      pump();
    });
    assert.equal(res.status, 413);
    assert.equal(JSON.parse(res.body).detail.codigo, 'demasiado_grande');
    assert.ok(sent < total, 'the server answered only after the whole body was sent');
    assert.deepEqual(await leftovers(h), []);
  });

  it('answers 503 ocupado with Retry-After when the worker and queue are full', async () => {
    const blob = await audioBlob(speech.wav!);
    const results = await Promise.all([0, 1, 2, 3].map(() => h.client.post(path, { body: form({ archivo: blob }) })));
    const statuses = results.map((r) => r.status).sort();
    assert.ok(statuses.includes(200), statuses.join());
    const busy = results.find((r) => r.status === 503);
    assert.ok(busy, `expected one ocupado among ${statuses.join()}`);
    assert.equal(busy.body.detail.codigo, 'ocupado');
    assert.ok(Number(busy.headers.get('retry-after')) > 0);
    assert.deepEqual(await leftovers(h), []);
  });

  it('needs the module and the write permission', async () => {
    const blob = await audioBlob(silence);
    const readOnly = await h.client.post(path, { body: form({ archivo: blob }), key: h.readKey });
    assert.equal(readOnly.status, 403);
    await h.admin.disableModule(h.spaceId, 'transcripcion');
    try {
      const off = await h.client.post(path, { body: form({ archivo: blob }) });
      assert.equal(off.status, 403);
      assert.equal(off.body.detail, 'módulo no habilitado para este espacio.');
    } finally {
      await h.admin.enableModule(h.spaceId, 'transcripcion');
    }
  });
});

describe('POST /transcripciones without a model', () => {
  it('answers 503 motor_no_listo without Retry-After, naming the file and the command; health and GET /estado say so; the command as written installs one', async (t) => {
    const fx = await fixtureDir('cerebro-route-nomodel-');
    t.after(() => fx.dispose());
    const modelPath = fx.path('modelo instalado.bin'); // a space in the path: the command must still work as written
    const h = await startTestHost(t, { plugins: [transcripcion], env: { CEREBRO_TRANSCRIPCION_MODELO: modelPath } });
    const base = `/mod/transcripcion/${h.spaceId}`;
    const waitState = async (wanted: (s: any) => boolean) => {
      for (let i = 0; i < 300; i++) {
        const res = await h.client.get(`${base}/estado`, { key: h.readKey });
        assert.equal(res.status, 200, res.text);
        if (wanted(res.body)) return res.body;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.fail('the engine never reached the expected state');
    };
    const state = await waitState((s) => s.motor === 'no_model');
    assert.equal(state.listo, false);
    assert.equal(state.reintentar, false);

    const f = new FormData();
    f.append('archivo', new Blob([new Uint8Array(1000)]), 'a.ogg');
    const res = await h.client.post(`${base}/transcripciones`, { body: f });
    assert.equal(res.status, 503);
    assert.equal(res.body.detail.codigo, 'motor_no_listo');
    assert.equal(res.headers.get('retry-after'), null, 'a missing model will not appear by itself: no Retry-After');
    assert.match(res.body.detail.detalle, /ggml-base\.bin/);
    assert.match(
      res.body.detail.detalle,
      /«npm run cerebro-transcripcion -- instalar-modelo \/ruta\/a\/ggml-base\.bin»/,
    );
    assert.ok(!res.body.detail.detalle.includes(fx.path('')), 'callers are not told server paths');
    assert.equal(state.detalle, res.body.detail.detalle, 'GET /estado gives the same sentence before any upload');
    assert.deepEqual(await leftovers(h), []);

    assert.deepEqual((await h.client.get('/health')).body, { estado: 'ready', salud: 'degradada', rol: 'todo' });
    const operator = (await h.admin.issueOperatorCredential('op')).token;
    const health = await h.client.get('/health', { key: operator });
    assert.equal(health.body.salud, 'degradada');
    assert.equal(health.body.motivos.length, 1);
    assert.match(health.body.motivos[0], /^transcripcion: .*no hay ningún modelo instalado/);

    // The operator runs the command health gives, as written (only the file to install filled in), in a checkout.
    const command = /«(npm run [^»]+)»/.exec(health.body.motivos[0])![1]!;
    const source = fx.path('ggml-tiny.bin');
    writeTinyModel(source);
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    // Not spawnSync: the test host serves from this process, and must keep serving (and timing its connections).
    const run = await promisify(execFile)('sh', ['-c', command.replace('/ruta/a/ggml-base.bin', source)], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, CEREBRO_DATA_DIR: fx.path('otro-data') },
    });
    assert.match(run.stdout, /Modelo instalado en /, run.stderr);
    const ready = await waitState((s) => s.motor !== 'no_model');
    assert.ok(ready.listo || ready.reintentar, JSON.stringify(ready));
    const loaded = await waitState((s) => s.listo);
    assert.equal(loaded.detalle, null);
    assert.deepEqual((await h.client.get('/health')).body, { estado: 'ready', salud: 'ok', rol: 'todo' });
  });

  it('tells a request that is itself wrong what is wrong (422), as with a model, and takes no credits', async (t) => {
    const fx = await fixtureDir('cerebro-route-nomodel-');
    t.after(() => fx.dispose());
    const h = await startTestHost(t, {
      plugins: [transcripcion],
      env: { CEREBRO_TRANSCRIPCION_MODELO: fx.path('ninguno.bin') },
    });
    const base = `/mod/transcripcion/${h.spaceId}`;
    for (let i = 0; (await h.client.get(`${base}/estado`)).body.motor !== 'no_model'; i++) {
      assert.ok(i < 300, 'the engine never reported no_model');
      await new Promise((r) => setTimeout(r, 50));
    }
    const balance = async () => (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.saldo;
    const before = await balance();
    const audio = () => new Blob([new Uint8Array(1000)]);

    const missing = await h.client.post(`${base}/transcripciones`, { body: form({ idioma: 'es' }) });
    assert.equal(missing.status, 422, missing.text);
    assert.ok(Array.isArray(missing.body.detail));
    assert.deepEqual(missing.body.detail[0].loc, ['body', 'archivo']);
    const zeroCap = await h.client.post(`${base}/transcripciones`, {
      body: form({ archivo: audio(), duracion_max_s: '0' }),
    });
    assert.equal(zeroCap.status, 422, zeroCap.text);
    assert.deepEqual(zeroCap.body.detail[0].loc, ['body', 'duracion_max_s']);
    const badLang = await h.client.post(`${base}/transcripciones`, {
      body: form({ archivo: audio(), idioma: 'espanol' }),
    });
    assert.equal(badLang.status, 422, badLang.text);
    assert.deepEqual(badLang.body.detail[0].loc, ['body', 'idioma']);
    // Not multipart: the audio field is missing, as the route says with a model installed.
    const json = await h.client.post(`${base}/transcripciones`, { json: { archivo: 'x' } });
    assert.equal(json.status, 422, json.text);
    assert.deepEqual(json.body.detail[0].loc, ['body', 'archivo']);
    const openAi = await h.client.post(`${base}/v1/audio/transcriptions`, { body: form({ model: 'whisper-1' }) });
    assert.equal(openAi.status, 422, openAi.text);
    assert.deepEqual(openAi.body.detail[0].loc, ['body', 'file']);

    // A well-formed request still learns that a model is missing.
    const valid = await h.client.post(`${base}/transcripciones`, { body: form({ archivo: audio(), idioma: 'es' }) });
    assert.equal(valid.status, 503, valid.text);
    assert.equal(valid.body.detail.codigo, 'motor_no_listo');
    assert.equal(await balance(), before, 'the route costs no credits, refused or not');
    assert.deepEqual(await leftovers(h), []);
  });
});
