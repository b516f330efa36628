import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { ModelFileError, validateModelFile } from './model-file.js';
import { installModel, ModelInstallError } from './installer.js';
import { HPARAM_ORDER } from './ggml-format.js';
import { writeTinyModel } from '../testing/tiny-model.js';
import { fixtureDir, type FixtureDir } from '../testing/fixtures.js';

describe('validateModelFile', () => {
  let fx: FixtureDir;
  let model: string;
  let bytes: Buffer;

  before(async () => {
    fx = await fixtureDir('cerebro-model-');
    model = fx.path('tiny.bin');
    writeTinyModel(model);
    bytes = await readFile(model);
  });
  after(() => fx.dispose());

  async function variant(name: string, mutate: (b: Buffer) => Buffer): Promise<string> {
    const path = fx.path(name);
    await writeFile(path, mutate(Buffer.from(bytes)));
    return path;
  }

  async function rejected(path: string, pattern: RegExp): Promise<void> {
    await assert.rejects(validateModelFile(path), (err: unknown) => {
      assert.ok(err instanceof ModelFileError);
      assert.match(err.message, pattern);
      return true;
    });
  }

  it('accepts the generated model and reports its shape', async () => {
    const info = await validateModelFile(model);
    assert.equal(info.sizeName, 'tiny');
    assert.equal(info.multilingual, true);
    assert.equal(info.sizeBytes, bytes.length);
    assert.equal(info.tensorCount, 7 + 15 * 4 + 4 + 24 * 4);
  });

  it('rejects a missing file, a non-ggml file and a tiny file', async () => {
    await rejected(fx.path('no-existe.bin'), /ningún modelo/);
    await rejected(await variant('texto.bin', (b) => Buffer.concat([Buffer.from('no soy un modelo'), b])), /firma/);
    await rejected(await variant('corto.bin', (b) => b.subarray(0, 100)), /pequeño/);
  });

  it('rejects truncated files, bad hparams, f32 files, and wrong tensor shapes', async () => {
    await rejected(await variant('cortado.bin', (b) => b.subarray(0, b.length - 1000)), /incompleto/);
    await rejected(await variant('sobra.bin', (b) => Buffer.concat([b, Buffer.alloc(5)])), /incompleto|dañada/);
    const hparam = (key: (typeof HPARAM_ORDER)[number], value: number) => (b: Buffer) => {
      b.writeInt32LE(value, 4 + 4 * HPARAM_ORDER.indexOf(key));
      return b;
    };
    await rejected(await variant('vocab.bin', hparam('nVocab', 1000)), /n_vocab/);
    await rejected(await variant('estado.bin', hparam('nTextState', 128)), /n_audio_state/);
    await rejected(await variant('ftype.bin', hparam('ftype', 0)), /f32/);
    await rejected(await variant('capas.bin', hparam('nAudioLayer', 5)), /faltan|tensor/);
    // Flip one dimension of the first tensor (encoder.positional_embedding) in place.
    const at = bytes.indexOf(Buffer.from('encoder.positional_embedding')) - 8;
    await rejected(
      await variant('forma.bin', (b) => {
        b.writeInt32LE(b.readInt32LE(at) + 1, at);
        return b;
      }),
      /forma/,
    );
  });
});

describe('installModel', () => {
  let fx: FixtureDir;
  let model: string;
  let sha1: string;
  let server: Server;
  let baseUrl: string;

  before(async () => {
    fx = await fixtureDir('cerebro-install-');
    model = fx.path('origen.bin');
    writeTinyModel(model, { seed: 3 });
    const bytes = await readFile(model);
    sha1 = createHash('sha1').update(bytes).digest('hex');
    server = createServer((req, res) => {
      if (req.url === '/ggml-tiny.bin' || req.url === '/modelo.bin') {
        res.writeHead(200, { 'content-length': bytes.length });
        res.end(bytes);
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.close();
    await fx.dispose();
  });

  async function filesIn(dir: string): Promise<string[]> {
    return (await readdir(dir)).sort();
  }

  it('copies a local file, checking its checksum and structure', async () => {
    const dest = fx.path('instalado/whisper.bin');
    const out = await installModel({ source: model, sha1, dest });
    assert.equal(out.path, dest);
    assert.equal(out.sha1, sha1);
    assert.equal(out.model.sizeName, 'tiny');
    assert.deepEqual(await filesIn(fx.path('instalado')), ['whisper.bin']);
  });

  it('downloads from a URL with a checksum', async () => {
    const dest = fx.path('descarga/whisper.bin');
    const out = await installModel({ source: `${baseUrl}/modelo.bin`, sha1, dest });
    assert.equal(out.sha1, sha1);
    assert.deepEqual(await filesIn(fx.path('descarga')), ['whisper.bin']);
  });

  it('refuses a checksum mismatch or a non-model and leaves no file behind', async () => {
    const dir = fx.path('fallos');
    const dest = `${dir}/whisper.bin`;
    // By name: the published SHA-1 of ggml-tiny.bin cannot match our generated file.
    await assert.rejects(installModel({ name: 'tiny', baseUrl, dest }), /SHA-1 no coincide/);
    await assert.rejects(installModel({ source: model, sha1: '0'.repeat(40), dest }), ModelInstallError);
    const notModel = fx.path('nota.txt');
    await writeFile(notModel, 'hola');
    await assert.rejects(installModel({ source: notModel, dest }), /no es un modelo Whisper/);
    await assert.rejects(installModel({ source: `${baseUrl}/falta.bin`, dest }), /404/);
    await assert.rejects(installModel({ name: 'enorme', dest }), /desconocido/);
    assert.deepEqual(await filesIn(dir), []);
  });
});
