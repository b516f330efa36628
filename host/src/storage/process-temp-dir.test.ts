import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { processStartStamp, processTempDir, removeDeadTempDirs, tempRootOf } from './process-temp-dir.js';

function dataDir(t: { after(fn: () => unknown): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'cerebro-temp-dirs-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function withFile(dir: string): void {
  mkdirSync(join(dir, 'upload-x'), { recursive: true });
  writeFileSync(join(dir, 'upload-x', 'parte'), 'bytes');
}

/** Pid and start stamp of a process that has already exited. */
async function deadProcess(): Promise<{ pid: number; stamp: string }> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  await new Promise((ok) => child.once('spawn', ok));
  const stamp = processStartStamp(child.pid!) ?? '1';
  const exited = new Promise((ok) => child.once('exit', ok));
  child.kill('SIGKILL');
  await exited;
  return { pid: child.pid!, stamp };
}

test('start-up removes the folders of dead processes and keeps those of live ones', async (t) => {
  const dir = dataDir(t);
  const root = tempRootOf(dir);
  const own = processTempDir(dir);
  withFile(own);
  const dead = await deadProcess();
  withFile(join(root, `${dead.pid}-${dead.stamp}`));
  // This process's pid with another start stamp: a previous process whose pid was reused.
  withFile(join(root, `${process.pid}-1`));
  const liveChild = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  t.after(() => liveChild.kill('SIGKILL'));
  await new Promise((ok) => liveChild.once('spawn', ok));
  const other = join(root, `${liveChild.pid}-${processStartStamp(liveChild.pid!) ?? '1'}`);
  withFile(other);

  const removed = removeDeadTempDirs(dir);

  assert.deepEqual(removed.sort(), [`${dead.pid}-${dead.stamp}`, `${process.pid}-1`].sort());
  assert.deepEqual(readdirSync(root).sort(), [basename(own), basename(other)].sort());
  assert.deepEqual(readdirSync(join(own, 'upload-x')), ['parte']);
});

test('upload folders of older versions are removed only once no upload can still be writing them', (t) => {
  const dir = dataDir(t);
  const root = tempRootOf(dir);
  mkdirSync(join(root, 'upload-viejo'), { recursive: true });
  mkdirSync(join(root, 'upload-reciente'), { recursive: true });
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(join(root, 'upload-viejo'), hourAgo, hourAgo);

  assert.deepEqual(removeDeadTempDirs(dir), ['upload-viejo']);
  assert.deepEqual(readdirSync(root), ['upload-reciente']);
});

test('a data directory without temporary files is fine', (t) => {
  assert.deepEqual(removeDeadTempDirs(join(dataDir(t), 'nada')), []);
});
