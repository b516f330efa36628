import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { runCli } from './run-cli.js';

/** Runs `cerebro serve …` up to where it would start, capturing what it prints. */
async function serve(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const sink = (write: (s: string) => void) =>
    new Writable({
      write(chunk, _enc, done) {
        write(String(chunk));
        done();
      },
    });
  const code = await runCli(['serve', ...args], {
    stdout: sink((s) => (out += s)),
    stderr: sink((s) => (err += s)),
    env: {},
  });
  return { code, out, err };
}

test('serve --rol accepts todo, api and worker only; the usage names them', async () => {
  const help = await serve(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.out, /--rol todo\|api\|worker/);
  for (const args of [['--rol', 'jefe'], ['--rol=API'], ['--rol']]) {
    const refused = await serve(args);
    assert.equal(refused.code, 2, args.join(' '));
    assert.match(refused.err, /Rol no válido: .*usa todo, api, worker\./);
  }
  const unknown = await serve(['--puerto', '80']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /Argumento desconocido: --puerto/);
});
