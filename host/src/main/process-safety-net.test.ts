import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { uncaughtErrorHandler } from './process-safety-net.js';

test('a storage error nobody caught is logged with its errno and the process goes on; any other error still ends it', () => {
  const lines: { level: number; errno?: string; msg: string }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const exits: number[] = [];
  const handle = uncaughtErrorHandler(log, (code) => exits.push(code));
  handle(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }));
  handle(new Error('rechazo', { cause: Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }) }));
  assert.deepEqual(exits, []);
  assert.deepEqual(
    lines.map((l) => [l.level, l.errno]),
    [
      [50, 'SQLITE_FULL'],
      [50, 'ENOSPC'],
    ],
  );
  handle(new Error('otra cosa'));
  assert.deepEqual(exits, [1]);
  assert.equal(lines.at(-1)!.level, 60);
});
