import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, test } from 'node:test';
import { crossEncoderModel, embeddingTableModel } from '../cerebro/testing/onnx-model.js';
import { tempDir, type TempDir } from '../cerebro/testing/fixtures.js';
import { runCli } from './run-cli.js';

const VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'frase', 'prueba', 'horario'];
const rows = (dim: number) => VOCAB.map((_, i) => Float32Array.from({ length: dim }, (_, j) => ((i + j) % 3) - 1));
const tokenizerJson = JSON.stringify({
  model: { type: 'WordPiece', vocab: Object.fromEntries(VOCAB.map((t, i) => [t, i])) },
});

let dir: TempDir;
let files: Map<string, Uint8Array | string>;
let mirror: string;
let closeServer: () => Promise<void>;
before(async () => {
  dir = await tempDir();
  // What a Hugging Face mirror serves for the catalogue's multilingual-e5-small: a tiny model of the right size.
  files = new Map<string, Uint8Array | string>([
    ['/Xenova/multilingual-e5-small/resolve/main/onnx/model_quantized.onnx', embeddingTableModel(rows(384))],
    ['/Xenova/multilingual-e5-small/resolve/main/tokenizer.json', tokenizerJson],
    ['/Xenova/multilingual-e5-small/resolve/main/tokenizer_config.json', '{}'],
    ['/suelto/modelo.onnx', embeddingTableModel(rows(8))],
    ['/suelto/vocab.txt', `${VOCAB.join('\n')}\n`],
  ]);
  const server = createServer((req, res) => {
    const body = files.get(req.url ?? '');
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeServer = () => new Promise((r) => server.close(() => r()));
});
after(async () => {
  await closeServer();
  await dir.cleanup();
});

async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  stderr.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const code = await runCli(['modelos', ...args], { stdout, stderr, env: { CEREBRO_DATA_DIR: dir.path, ...env } });
  return { code, out, err };
}

test('a catalogue name is downloaded, checked and installed where CEREBRO_EMBEDDING_MODEL_DIR points, with its prefixes', async () => {
  const target = join(dir.path, 'e5');
  const run = await cli(['instalar', 'multilingual-e5-small'], {
    CEREBRO_MODELS_MIRROR: mirror,
    CEREBRO_EMBEDDING_MODEL_DIR: target,
  });
  assert.equal(run.code, 0, run.err);
  assert.match(run.out, /Instalado multilingual-e5-small \(embeddings, 384 dimensiones\)/);
  assert.doesNotMatch(run.out, /Para usarlo/, 'already where the configuration points');
  const manifest = JSON.parse(await readFile(join(target, 'cerebro-modelo.json'), 'utf8'));
  assert.deepEqual(
    [manifest.kind, manifest.dimensions, manifest.queryPrefix, manifest.passagePrefix],
    ['embeddings', 384, 'query: ', 'passage: '],
  );
  assert.ok(existsSync(join(target, 'onnx/model_quantized.onnx')) && existsSync(join(target, 'tokenizer.json')));
});

test('a model of the wrong size, or a download that fails, leaves the installed model untouched', async () => {
  const target = join(dir.path, 'e5');
  const before = await readFile(join(target, 'cerebro-modelo.json'), 'utf8');
  const key = '/Xenova/multilingual-e5-small/resolve/main/onnx/model_quantized.onnx';
  const good = files.get(key)!;
  try {
    files.set(key, embeddingTableModel(rows(16)));
    const wrong = await cli(['instalar', 'multilingual-e5-small', '--destino', target], {
      CEREBRO_MODELS_MIRROR: mirror,
    });
    assert.equal(wrong.code, 1);
    assert.match(wrong.err, /16 dimensiones; se esperaban 384/);
    files.delete(key);
    const missing = await cli(['instalar', 'multilingual-e5-small', '--destino', target], {
      CEREBRO_MODELS_MIRROR: mirror,
    });
    assert.equal(missing.code, 1);
    assert.match(missing.err, /no existe http/);
  } finally {
    files.set(key, good);
  }
  assert.equal(await readFile(join(target, 'cerebro-modelo.json'), 'utf8'), before);
  assert.deepEqual(
    (await readdir(dir.path)).filter((f) => f.includes('.instalando-')),
    [],
  );
});

test('a URL of an .onnx file brings the tokenizer beside it; a broken file is refused', async () => {
  const run = await cli(['instalar', `${mirror}/suelto/modelo.onnx`], {});
  assert.equal(run.code, 0, run.err);
  assert.match(run.out, /8 dimensiones/);
  assert.match(run.out, new RegExp(`CEREBRO_EMBEDDING_MODEL_DIR=${join(dir.path, 'modelos', 'modelo')}`));
  await mkdir(join(dir.path, 'roto'));
  const broken = await dir.file('roto/model.onnx', 'esto no es un modelo');
  await dir.file('roto/vocab.txt', `${VOCAB.join('\n')}\n`);
  const refused = await cli(['instalar', broken, '--destino', join(dir.path, 'roto-instalado')]);
  assert.equal(refused.code, 1);
  assert.equal(existsSync(join(dir.path, 'roto-instalado')), false);
});

test('a local reranker directory is copied, run once and installed where CEREBRO_RERANK_MODEL_DIR points', async () => {
  await mkdir(join(dir.path, 'ce'));
  await dir.file('ce/model.onnx', crossEncoderModel(VOCAB.map((t) => (t === 'horario' ? 1 : 0))));
  await dir.file('ce/vocab.txt', `${VOCAB.join('\n')}\n`);
  const target = join(dir.path, 'reordenador');
  const run = await cli(['instalar', join(dir.path, 'ce'), '--tipo', 'reordenacion'], {
    CEREBRO_RERANK_MODEL_DIR: target,
  });
  assert.equal(run.code, 0, run.err);
  assert.equal(JSON.parse(await readFile(join(target, 'cerebro-modelo.json'), 'utf8')).kind, 'reordenacion');
  assert.equal((await cli(['instalar', join(dir.path, 'ce'), '--tipo', 'otro'])).code, 2);
});

test('the list names the recommended models with their licences', async () => {
  const run = await cli(['lista']);
  assert.match(run.out, /multilingual-e5-small\s+embeddings/);
  assert.match(run.out, /jina-reranker-v2-base-multilingual.*CC-BY-NC-4.0/);
});
