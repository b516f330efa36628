import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { TurnBatchedDestination, asLineSink, type ByteSink, type LineSink } from './turn-batched-destination.js';

class RecordingSink implements LineSink {
  writes: string[] = [];
  syncFlushes = 0;
  write(chunk: string): void {
    this.writes.push(chunk);
  }
  flushSync(): void {
    this.syncFlushes++;
  }
}

test('the lines of one turn reach the sink as one write, in order, when the turn ends', async () => {
  const sink = new RecordingSink();
  const destination = new TurnBatchedDestination(sink);
  destination.write('a\n');
  destination.write('b\n');
  destination.write('c\n');
  assert.deepEqual(sink.writes, []);
  await nextTurn();
  assert.deepEqual(sink.writes, ['a\nb\nc\n']);
  destination.write('d\n');
  await nextTurn();
  assert.deepEqual(sink.writes, ['a\nb\nc\n', 'd\n']);
});

test('a turn that writes a lot is handed over early, so the batch stays bounded', async () => {
  const sink = new RecordingSink();
  const destination = new TurnBatchedDestination(sink, 10);
  destination.write('12345\n');
  destination.write('67890\n');
  assert.deepEqual(sink.writes, ['12345\n67890\n']);
  destination.write('x\n');
  await nextTurn();
  assert.deepEqual(sink.writes, ['12345\n67890\n', 'x\n']);
});

test('flush and flushSync hand over what is pending at once', async () => {
  const sink = new RecordingSink();
  const destination = new TurnBatchedDestination(sink);
  destination.write('a\n');
  destination.flushSync();
  assert.deepEqual(sink.writes, ['a\n']);
  assert.equal(sink.syncFlushes, 1);
  destination.write('b\n');
  await new Promise<void>((done) => destination.flush(() => done()));
  assert.deepEqual(sink.writes, ['a\n', 'b\n']);
  await nextTurn();
  assert.deepEqual(sink.writes, ['a\n', 'b\n'], 'nothing is written twice');
});

test('lines logged just before the process exits are written, also after an uncaught exception', () => {
  const logger = fileURLToPath(new URL('./logger.js', import.meta.url));
  for (const ending of ['process.exit(0)', "throw new Error('boom')"]) {
    const script = `import { createRootLogger } from ${JSON.stringify(logger)};
      const log = createRootLogger('info');
      for (let i = 0; i < 3; i++) log.info({ n: i }, 'linea');
      ${ending};`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { n: number });
    assert.deepEqual(
      lines.map((l) => l.n),
      [0, 1, 2],
      `${ending}: ${run.stdout} ${run.stderr}`,
    );
  }
});

test('a byte sink gets each batch encoded once, as one Buffer; seen as a line sink it encodes each chunk', async () => {
  const chunks: Buffer[] = [];
  const sink: ByteSink = { takesBytes: true, write: (chunk: Buffer) => chunks.push(chunk) };
  const destination = new TurnBatchedDestination(sink);
  destination.write('{"msg":"petición"}\n');
  destination.write('{"msg":"ñandú"}\n');
  await nextTurn();
  assert.equal(chunks.length, 1);
  assert.ok(Buffer.isBuffer(chunks[0]));
  assert.equal(chunks[0]!.toString('utf8'), '{"msg":"petición"}\n{"msg":"ñandú"}\n');
  asLineSink(sink).write('ñ');
  assert.deepEqual(chunks[1], Buffer.from('ñ'));
});

test('a burst of lines past the batch bound just before exit is written whole, in order', () => {
  const logger = fileURLToPath(new URL('./logger.js', import.meta.url));
  const script = `import { createRootLogger } from ${JSON.stringify(logger)};
    const log = createRootLogger('info');
    for (let i = 0; i < 20000; i++) log.info({ n: i }, 'línea');
    process.exit(0);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const numbers = run.stdout
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { n: number }).n);
  assert.equal(numbers.length, 20000, run.stderr);
  assert.ok(numbers.every((n, i) => n === i));
});
