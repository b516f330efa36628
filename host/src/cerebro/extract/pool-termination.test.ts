// Aborting a preparation task terminates its thread; piscina then starts another. On Node 20 a thread terminated
// while piscina's require() was loading the ES module worker aborted the whole process (FATAL ERROR in
// v8::Module::IsGraphAsync): the pools' CommonJS entries (kernel/thread-pool.ts) import it asynchronously instead.
// The rounds run in a child process, because the failure is a crash of Node itself.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const SCRIPT = fileURLToPath(new URL('../testing/terminate-starting-threads.js', import.meta.url));
/**
 * A termination must fall inside a short part of the thread's start, so a run catches the old crash only sometimes:
 * before the entries, two runs of 200 rounds in four aborted (Node 20.20). The guard in threadPool keeps every pool
 * on an entry; this run checks that an entry makes those terminations harmless.
 */
const ROUNDS = 200;

test('threads terminated while they start, by aborted tasks and by closing the pool, never crash the process', {
  timeout: 120_000,
}, async () => {
  const child = spawn(process.execPath, [SCRIPT, String(ROUNDS)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  assert.deepEqual({ code, signal }, { code: 0, signal: null }, stderr.slice(0, 2000));
});
