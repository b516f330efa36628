// The single executable as an installed copy runs it: from a temporary folder, no checkout, no Node on the PATH
// (only ffmpeg and ffprobe, which transcription calls). One start exercises what the executable must carry: the
// first run, a plugin installed with `cerebro plugins add` from its .tgz, hybrid search with a local ONNX model,
// transcription with a Whisper model path (its Silero VAD on the same ONNX runtime), upload and ask, the operator
// CLI beside the running server, and the Studio's assets when this checkout has them.
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { npmPack } from './support/npm-pack.js';
import { GUIDE_MD } from './support/rag.js';
import { startServer } from './support/server-process.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BINARY = process.env.CEREBRO_BINARY ?? join(ROOT, 'dist-binary/cerebro');
const skip = existsSync(BINARY) ? false : `no executable at ${BINARY}: build it with \`npm run build:binary\``;
const STUDIO = join(ROOT, 'host/studio/dist/index.html');

// Model generators from the repository's own test kits (compiled with it; loaded by path, outside this package).
const { embeddingTableModel } = (await import(join(ROOT, 'host/dist/cerebro/testing/onnx-model.js'))) as {
  embeddingTableModel(table: Float32Array[]): Uint8Array;
};
const { writeTinyModel } = (await import(join(ROOT, 'plugins/transcripcion/dist/testing/tiny-model.js'))) as {
  writeTinyModel(path: string): unknown;
};

/** A folder holding only the external tools the features call, to be the whole PATH. */
async function toolsOnly(dir: string): Promise<string> {
  await mkdir(dir);
  for (const tool of ['ffmpeg', 'ffprobe']) {
    const { stdout } = await run('sh', ['-c', `command -v ${tool}`]);
    symlinkSync(stdout.trim(), join(dir, tool));
  }
  return dir;
}

/** Runs the executable to completion (the CLI), with `env`; its stdout. */
function cli(cwd: string, env: Record<string, string>, args: string[]): Promise<string> {
  const child: ChildProcess = spawn(BINARY, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    err += d;
  });
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`cerebro ${args.join(' ')} → ${code}: ${err}`)),
    ),
  );
}

const VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'actualizar', 'sistema', 'apt', 'paquetes'];

/** A new temporary folder, removed after the test. */
async function freshDir(t: { after(fn: () => unknown): void }, prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A tiny local embedding model (a lookup table over VOCAB, 3 dimensions) in `dir`; returns `dir`. */
async function embeddingModel(dir: string): Promise<string> {
  await mkdir(dir);
  writeFileSync(
    join(dir, 'model.onnx'),
    embeddingTableModel(VOCAB.map((_, i) => Float32Array.from([Math.cos(i), Math.sin(i), 1]))),
  );
  writeFileSync(join(dir, 'vocab.txt'), `${VOCAB.join('\n')}\n`);
  return dir;
}

test('the single executable, with no checkout and no Node on the PATH: plugins add, hybrid search, transcription, upload and ask, admin', {
  skip,
  timeout: 180_000,
}, async (t) => {
  const dir = await freshDir(t, 'cerebro-binary-');
  const holaTgz = await npmPack('examples/hola-plugin', dir);
  const modelDir = await embeddingModel(join(dir, 'modelo-embeddings'));
  const whisperModel = join(dir, 'whisper-tiny.bin');
  writeTinyModel(whisperModel);
  const speech = join(dir, 'voz.wav');
  const silence = join(dir, 'silencio.wav');
  await run('espeak-ng', [
    '-v',
    'es',
    '-s',
    '160',
    '-w',
    speech,
    'Hola, esta es una prueba del servicio de transcripción.',
  ]);
  await run('ffmpeg', [
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'anullsrc=r=16000:cl=mono',
    '-t',
    '2',
    '-ac',
    '1',
    silence,
  ]);

  const env = {
    PATH: await toolsOnly(join(dir, 'bin')),
    HOME: dir,
    CEREBRO_DATA_DIR: join(dir, 'data'),
    CEREBRO_CACHE_DIR: join(dir, 'cache'),
    CEREBRO_LOG_LEVEL: 'warn',
    CEREBRO_EMBEDDING_MODEL_DIR: modelDir,
    CEREBRO_TRANSCRIPCION_MODELO: whisperModel,
  };
  // Installed before the first start, so the first run's demo space gets its module with all the others.
  const added = await cli(dir, env, ['plugins', 'add', holaTgz]);
  assert.match(added, /Instalado hola@1\.0\.0/);
  // Hints name the executable itself (its path: its folder is not on this PATH), and a plugin's own command runs.
  assert.ok(added.includes(`${BINARY} admin space module --id <espacio> --module hola --on`), added);
  assert.ok(
    (await cli(dir, env, ['transcripcion', '--help'])).includes(
      `Uso: ${BINARY} transcripcion instalar-modelo <nombre|ruta|url>`,
    ),
  );

  const server = await startServer(env.CEREBRO_DATA_DIR, env, {
    executable: BINARY,
    isolated: true,
    cwd: dir,
    timeoutMs: 60_000,
  });
  t.after(() => server.stop());
  const secrets = await readFile(join(dir, 'data', 'primer-arranque.txt'), 'utf8');
  const key = /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(secrets)?.[0];
  const operator = /operador[^\n]*?:\s+(\S+)$/m.exec(secrets)?.[1];
  assert.ok(key && operator, `the first-run file lacks the key or the operator credential:\n${secrets}`);
  const auth = { authorization: `Bearer ${key}` };
  const url = server.url;

  const cached = readdirSync(join(dir, 'cache')).filter((n) => !n.startsWith('.'));
  const builds = cached.filter((n) => /^[0-9a-f]{16}$/.test(n));
  assert.equal(builds.length, 1, 'one unpacked build');
  assert.deepEqual(cached.sort(), [builds[0], `${builds[0]}.runtime`].sort(), 'the build and its decompressed runtime');
  assert.ok(
    readdirSync(join(dir, 'cache', '.en-uso')).includes(`${builds[0]}-${server.pid}`),
    'the running server marks its build',
  );

  // Every plugin the executable ships, and the one added, loads: a package a bundle cannot follow (a require() at
  // run time) turns its plugin off without stopping the start.
  const health = (await (
    await fetch(`${url}/api/health`, { headers: { authorization: `Bearer ${operator}` } })
  ).json()) as { plugins: { id: string; estado: string; error?: string }[] };
  assert.deepEqual(
    health.plugins.filter((p) => p.estado !== 'activo'),
    [],
    'every plugin active',
  );
  assert.deepEqual(health.plugins.map((p) => p.id).sort(), [
    'fuentes',
    'hola',
    'landing',
    'marca',
    'transcripcion',
    'ventas',
  ]);

  const cerebroHealth = async () =>
    (
      (await (await fetch(`${url}/api/health`, { headers: { authorization: `Bearer ${operator}` } })).json()) as {
        cerebro: { busqueda: string; busqueda_aviso?: string };
      }
    ).cerebro;
  assert.equal(
    (await cerebroHealth()).busqueda,
    'hibrida',
    `hybrid search with the local ONNX model: ${JSON.stringify(await cerebroHealth())}`,
  );

  // The installed plugin, through the pipeline.
  const hola = await fetch(`${url}/api/mod/hola/demo/saludo`, { headers: auth });
  assert.equal(hola.status, 200, await hola.clone().text());
  assert.deepEqual(await hola.json(), { saludo: 'Hola, demo' });

  // Upload, index (embeddings computed by the ONNX runtime inside the executable) and ask.
  const form = new FormData();
  form.append('archivos', new Blob([GUIDE_MD]), 'guia.md');
  const upload = await fetch(`${url}/api/rag/demo/load_documents`, { method: 'POST', headers: auth, body: form });
  assert.equal(upload.status < 300, true, await upload.clone().text());
  let indexed = false;
  for (let i = 0; i < 600 && !indexed; i++) {
    indexed = (
      (await (await fetch(`${url}/api/rag/demo/indexing_status`, { headers: auth })).json()) as { listo: boolean }
    ).listo;
    if (!indexed) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(indexed, 'indexing finished');
  const ask = await fetch(`${url}/api/rag/demo/conversations`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ pregunta: '¿Cómo actualizo el sistema?' }),
  });
  const answer = (await ask.json()) as { encontrada: boolean; respuesta: string; fuentes: { documento: string }[] };
  assert.equal(ask.status, 200);
  assert.equal(answer.encontrada, true);
  assert.match(answer.respuesta, /apt update/);
  assert.equal(answer.fuentes[0]!.documento, 'guia.md');
  // The question was embedded too: a failure of the model at query time would show here.
  const after = await cerebroHealth();
  assert.equal(after.busqueda, 'hibrida');
  assert.equal(after.busqueda_aviso, undefined, after.busqueda_aviso);

  // Transcription with the model path: whisper.cpp and the VAD inside the executable (the engine loads in the
  // background: 503 motor_no_listo until then).
  const transcribe = async (file: string) => {
    const f = new FormData();
    f.append('archivo', new Blob([await readFile(file)], { type: 'audio/wav' }), 'audio.wav');
    f.append('idioma', 'es');
    return fetch(`${url}/api/mod/transcripcion/demo/transcripciones`, { method: 'POST', headers: auth, body: f });
  };
  let voiced: Response | undefined;
  for (let i = 0; i < 300; i++) {
    voiced = await transcribe(speech);
    if (voiced.status !== 503) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(voiced!.status, 200, await voiced!.clone().text());
  assert.equal(((await voiced!.json()) as { vacio: boolean }).vacio, false, 'speech found by the VAD');
  const quiet = await transcribe(silence);
  assert.equal(quiet.status, 200);
  const nothing = (await quiet.json()) as { texto: string; vacio: boolean };
  assert.deepEqual([nothing.texto, nothing.vacio], ['', true], 'silence: no voice, Whisper not run');

  // Studio's assets, when this checkout built them (another part of the build makes host/studio/dist).
  if (existsSync(STUDIO)) {
    const studio = await fetch(`${url}/studio/`);
    assert.equal(studio.status, 200);
    assert.match(studio.headers.get('content-type') ?? '', /text\/html/);
  } else {
    t.diagnostic(`no ${STUDIO}: the Studio check did not run`);
  }

  // The operator CLI from the same executable, on the same data, while the server runs.
  const owner = JSON.parse(await cli(dir, env, ['admin', 'owner', 'create', '--name', 'Ana', '--json'])) as {
    id: string;
  };
  assert.match(owner.id, /^own_/);
});

test('onnxruntime is unpacked at its first use, not by a start without models, and once when two processes race for it', {
  skip,
  timeout: 120_000,
}, async (t) => {
  const dir = await freshDir(t, 'cerebro-binary-onnx-');
  const modelDir = await embeddingModel(join(dir, 'modelo'));
  const cache = join(dir, 'cache');
  const env = {
    PATH: await toolsOnly(join(dir, 'bin')),
    HOME: dir,
    CEREBRO_DATA_DIR: join(dir, 'data'),
    CEREBRO_CACHE_DIR: cache,
    CEREBRO_LOG_LEVEL: 'warn',
  };

  const server = await startServer(env.CEREBRO_DATA_DIR, env, {
    executable: BINARY,
    isolated: true,
    cwd: dir,
    timeoutMs: 60_000,
  });
  await server.stop();
  const build = readdirSync(cache).find((n) => /^[0-9a-f]{16}$/.test(n));
  assert.ok(build, 'the start unpacked its build');
  const native = join(cache, build, 'node_modules', 'onnxruntime-node', 'bin', 'napi-v6', 'linux', 'x64');
  assert.ok(!existsSync(native), 'a start without models leaves onnxruntime packed');
  // ajv too: a start compiles no schema (the first request body or `plugins add` unpacks it, as the test above does).
  assert.ok(!existsSync(join(cache, build, 'node_modules', 'ajv', 'dist')), 'a start leaves ajv packed');
  assert.ok(!existsSync(join(cache, build, 'node_modules', 'fast-uri')), 'and the packages only ajv uses');

  // Two installs at once, each loading the ONNX runtime to try the model.
  const install = (to: string) =>
    cli(dir, env, ['modelos', 'instalar', modelDir, '--tipo', 'embeddings', '--destino', join(dir, to)]);
  await Promise.all([install('m1'), install('m2')]);
  const library = join(native, 'libonnxruntime.so.1');
  assert.ok(statSync(library).size > 10 << 20, 'the shared library is in place');
  assert.deepEqual(
    readdirSync(join(cache, build)).filter((n) => n.startsWith('.tmp-')),
    [],
    'no temporary folder stays behind',
  );
  // A later use finds it: the same file, not unpacked again.
  const { ino } = statSync(library);
  await install('m3');
  assert.equal(statSync(library).ino, ino);
});

test('a damaged or cut executable stops with exit code 70 and asks to download it again, leaving no runtime behind', {
  skip,
  timeout: 60_000,
}, async (t) => {
  const dir = await freshDir(t, 'cerebro-binary-damaged-');
  const whole = await readFile(BINARY);
  const runCopy = async (name: string, bytes: Buffer) => {
    const copy = join(dir, name);
    writeFileSync(copy, bytes, { mode: 0o755 });
    const cache = join(dir, `cache-${name}`);
    const res = spawnSync(copy, ['admin', 'help'], {
      env: { PATH: '', HOME: dir, CEREBRO_CACHE_DIR: cache },
      encoding: 'utf8',
    });
    const runtimes = existsSync(cache) ? readdirSync(cache).filter((n) => n.endsWith('.runtime')) : [];
    return { status: res.status, stderr: res.stderr, runtimes };
  };
  // A byte flipped in the middle of the compressed runtime (its frames follow the stub, in the first half).
  const flipped = Buffer.from(whole);
  const at = Math.floor(whole.length / 3);
  flipped[at] = flipped[at]! ^ 0xff;
  const damaged = await runCopy('danado', flipped);
  assert.equal(damaged.status, 70, damaged.stderr);
  assert.match(damaged.stderr, /vuelve a descargarlo/);
  assert.deepEqual(damaged.runtimes, []);
  // Cut short (an interrupted download).
  const cut = await runCopy('cortado', whole.subarray(0, whole.length - 1000));
  assert.equal(cut.status, 70, cut.stderr);
  assert.match(cut.stderr, /no es un ejecutable de Cerebro completo; vuelve a descargarlo/);
});
