import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runTool, STDERR_TAIL_BYTES, ToolMissingError } from './run-tool.js';

const MB = 1024 * 1024;
/** Runs a Node one-liner as the "tool". */
const node = (script: string, maxStdoutBytes?: number) =>
  runTool(process.execPath, ['-e', script], {
    timeoutMs: 60_000,
    debianPackage: 'nodejs',
    ...(maxStdoutBytes ? { maxStdoutBytes } : {}),
  });

test('stderr keeps only its last 64 KB, whatever the tool prints', async () => {
  const result = await node(
    `for (let i = 0; i < 100_000; i++) process.stderr.write('Syntax Error (' + i + '): Unknown operator\\n'); process.stderr.write('FIN\\n'); process.stdout.write('texto')`,
  );
  assert.equal(result.code, 0);
  assert.equal(result.stdout, 'texto');
  assert.ok(
    Buffer.byteLength(result.stderr) <= STDERR_TAIL_BYTES,
    `stderr kept ${Buffer.byteLength(result.stderr)} bytes`,
  );
  assert.match(result.stderr, /Syntax Error \(99999\): Unknown operator\nFIN\n$/);
});

test('stdout beyond its limit kills the tool and reports the overflow', async () => {
  // The tool would print forever: only the kill ends it.
  const result = await node(
    `const line = 'x'.repeat(1023) + '\\n'; (function more() { while (process.stdout.write(line)); process.stdout.once('drain', more); })()`,
    MB,
  );
  assert.equal(result.overflow, true);
  assert.equal(result.killed, false);
  assert.notEqual(result.code, 0);
  assert.ok(Buffer.byteLength(result.stdout) <= MB);
});

test('output within the limit is whole, in UTF-8', async () => {
  const result = await node(`process.stdout.write('configuración '.repeat(100_000))`);
  assert.equal(result.overflow, false);
  assert.equal(result.stdout, 'configuración '.repeat(100_000));
});

test('a missing binary names its Debian package', async () => {
  await assert.rejects(
    runTool('cerebro-no-existe', [], { timeoutMs: 1000, debianPackage: 'paquete-x' }),
    (err: unknown) => err instanceof ToolMissingError && err.debianPackage === 'paquete-x',
  );
});
