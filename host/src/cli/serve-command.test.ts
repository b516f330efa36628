import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCaptured } from './testing/captured-cli.js';

/** Runs `cerebro serve …` up to where it would start, capturing what it prints. */
const serve = (args: string[]) => runCaptured(['serve', ...args], {});

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
