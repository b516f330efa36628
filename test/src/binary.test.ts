import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { GUIDE_MD } from './support/rag.js';

const BINARY = process.env.CEREBRO_BINARY ?? fileURLToPath(new URL('../../dist-binary/cerebro', import.meta.url));
const skip = existsSync(BINARY) ? false : `no executable at ${BINARY}: build it with \`npm run build:binary\``;

/** Runs the executable as an installed copy would run: its own folder as working directory, nothing on the PATH. */
function start(dir: string, args: string[]): ChildProcess {
  return spawn(BINARY, args, {
    cwd: dir,
    env: { PATH: '', HOME: dir, CEREBRO_DATA_DIR: join(dir, 'data'), CEREBRO_CACHE_DIR: join(dir, 'cache'), CEREBRO_PORT: '0', CEREBRO_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function banner(child: ChildProcess): Promise<string> {
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      stderr += d;
      if (/openapi\.json/.test(stderr)) resolve(stderr);
    });
    child.once('exit', (code) => reject(new Error(`the executable exited with ${code}: ${stderr}`)));
  });
}

test('the single executable, with no checkout and an empty PATH: first run, upload, ask, admin', { skip, timeout: 90_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-binary-'));
  const child = start(dir, ['serve']);
  t.after(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  });
  const text = await banner(child);
  // Not a terminal: the first-run secrets are only in the operator's file, not on stderr.
  const secrets = await readFile(join(dir, 'data', 'primer-arranque.txt'), 'utf8');
  const key = /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(secrets)?.[0];
  const url = /(http:\/\/127\.0\.0\.1:\d+)\/api/.exec(text)?.[1];
  assert.ok(key && url, `banner lacks key or url:\n${text}`);
  assert.deepEqual((await readdir(join(dir, 'cache'))).filter((n) => !n.startsWith('.')).length, 1, 'one unpacked build');
  const auth = { authorization: `Bearer ${key}` };

  const health = await fetch(`${url}/api/health`);
  assert.equal(health.status, 200);

  const form = new FormData();
  form.append('archivos', new Blob([GUIDE_MD]), 'guia.md');
  const upload = await fetch(`${url}/api/rag/demo/load_documents`, { method: 'POST', headers: auth, body: form });
  assert.equal(upload.status < 300, true, await upload.clone().text());
  for (let i = 0; i < 600; i++) {
    const status = (await (await fetch(`${url}/api/rag/demo/indexing_status`, { headers: auth })).json()) as { listo: boolean };
    if (status.listo) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const ask = await fetch(`${url}/api/rag/demo/conversations`, {
    method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ pregunta: '¿Cómo actualizo el sistema?' }),
  });
  const answer = (await ask.json()) as { encontrada: boolean; respuesta: string; fuentes: { documento: string }[] };
  assert.equal(ask.status, 200);
  assert.equal(answer.encontrada, true);
  assert.match(answer.respuesta, /apt update/);
  assert.equal(answer.fuentes[0]!.documento, 'guia.md');

  // The operator CLI from the same executable, on the same data, while the server runs.
  const admin = start(dir, ['admin', 'owner', 'create', '--name', 'Ana', '--json']);
  let out = '';
  admin.stdout!.on('data', (d) => { out += d; });
  const code = await new Promise((r) => admin.once('exit', r));
  assert.equal(code, 0);
  assert.match(JSON.parse(out).id, /^own_/);
});
