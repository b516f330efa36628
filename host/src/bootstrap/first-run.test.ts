import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { FIRST_RUN_FILE, announceFirstRun, type FirstRunResult, saveFirstRunFile } from './first-run.js';

const RESULT: FirstRunResult = {
  spaceId: 'demo',
  ownerId: 'own_1',
  key: `crb_${'a'.repeat(16)}.${'b'.repeat(43)}`,
  operatorCredential: `cra_${'c'.repeat(16)}.${'d'.repeat(43)}`,
  studio: { email: 'demo@cerebro.example', clave: 'clave-de-prueba-larga' },
};

/** A stream that records what is written, as a terminal or as a pipe. */
function terminal(isTTY: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let text = '';
  stream.on('data', (d) => {
    text += d;
  });
  return { stream, text: () => text };
}

test('on a terminal the banner with the credentials is shown, and the 0600 file is written as well', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-first-run-unit-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const tty = terminal(true);
  const file = saveFirstRunFile(dir, 'http://127.0.0.1:8080', RESULT);
  announceFirstRun(tty.stream, file, 'http://127.0.0.1:8080', RESULT);
  await new Promise((r) => setImmediate(r));
  assert.equal(file, join(dir, FIRST_RUN_FILE));
  assert.ok(tty.text().includes(RESULT.key) && tty.text().includes(RESULT.operatorCredential));
  assert.ok(tty.text().includes('http://127.0.0.1:8080/studio/') && tty.text().includes(RESULT.studio.clave));
  assert.ok(tty.text().includes(file));
  assert.equal((await stat(file)).mode & 0o777, 0o600);
  assert.ok((await readFile(file, 'utf8')).includes(RESULT.operatorCredential));
});

test('on a pipe only the file path is written; a link planted at the path is replaced, never followed', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-first-run-unit-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const target = join(dir, 'otro.txt');
  await writeFile(target, 'intacto');
  await symlink(target, join(dir, FIRST_RUN_FILE));
  const pipe = terminal(false);
  const file = saveFirstRunFile(dir, 'http://127.0.0.1:8080', RESULT);
  announceFirstRun(pipe.stream, file, 'http://127.0.0.1:8080', RESULT);
  await new Promise((r) => setImmediate(r));
  assert.ok(
    !pipe.text().includes('crb_') && !pipe.text().includes('cra_') && !pipe.text().includes(RESULT.studio.clave),
    pipe.text(),
  );
  assert.ok(pipe.text().includes(file));
  assert.equal(await readFile(target, 'utf8'), 'intacto');
  assert.ok((await readFile(file, 'utf8')).includes(RESULT.key));
});

test("the file replaces an older one whole, 0600 even over a looser one; no temporary file is left, not even a dead start's", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-first-run-unit-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, FIRST_RUN_FILE), 'credenciales de otra base de datos', { mode: 0o644 });
  // What a start killed between its temporary file and the rename left behind.
  await writeFile(join(dir, `.${FIRST_RUN_FILE}.4242.0a1b2c3d.tmp`), 'a medias', { mode: 0o600 });
  const file = saveFirstRunFile(dir, 'http://127.0.0.1:8080', RESULT);
  const text = await readFile(file, 'utf8');
  assert.ok(text.startsWith('Primera ejecución') && text.includes(RESULT.key), text);
  assert.ok(text.endsWith('Borra este archivo cuando hayas guardado las credenciales.\n'));
  assert.equal((await stat(file)).mode & 0o777, 0o600);
  assert.deepEqual(await readdir(dir), [FIRST_RUN_FILE]);
});
