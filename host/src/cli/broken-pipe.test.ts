import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('./main.js', import.meta.url));

test('a command whose stdout reader has gone (`cerebro modelos lista | head`) ends quietly, without a stack trace', async () => {
  const child = spawn(process.execPath, [CLI, 'modelos', 'lista'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy(); // the reader leaves before the command writes: its first write meets EPIPE
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(stderr, '', 'nothing on stderr');
  assert.equal(code, 0);
});
