// External tools: each run has its own limit within its job's, a kill ends the tool's whole process group, and an
// aborted job (its worker thread terminated) leaves neither a running tool nor a temporary folder behind.
import assert from 'node:assert/strict';
import { chmod, mkdir, readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { tempDir, type TempDir } from '../testing/fixtures.js';
import { imageOnlyPdf, scannedPage } from '../testing/scanned.js';
import { ChildRegistry } from './child-registry.js';
import { inJob, toolTimeout } from './job-scope.js';
import { OCR_LIMITS, ocrTimeoutMs } from './ocr.js';
import { createPreparePool } from './pool.js';
import { runTool } from './run-tool.js';

let dir: TempDir;
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

/** State letter of a process (R, S, Z…), or null once it is gone. */
async function processState(pid: number): Promise<string | null> {
  try {
    return (await readFile(`/proc/${pid}/stat`, 'utf8')).replace(/^.*\) /s, '')[0] ?? null;
  } catch {
    return null;
  }
}

/** Waits until the process is gone or a zombie (killed; its dead thread will never reap it). */
async function dies(pid: number, withinMs = 3_000): Promise<boolean> {
  for (const end = Date.now() + withinMs; Date.now() < end; await sleep(50)) {
    const state = await processState(pid);
    if (state === null || state === 'Z') return true;
  }
  return false;
}

/** Our own children whose command is one of `names`. */
async function childTools(names: string[]): Promise<number[]> {
  const out: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const m = /^\d+ \(([^)]*)\) (\S) (\d+)/.exec(stat);
    if (m && Number(m[3]) === process.pid && m[2] !== 'Z' && names.includes(m[1]!)) out.push(Number(entry));
  }
  return out;
}

test('a time limit kills the tool with everything it started (its process group)', async () => {
  const started = Date.now();
  const result = await runTool('sh', ['-c', 'sleep 30 & echo $!; wait'], { timeoutMs: 300, debianPackage: 'dash' });
  assert.equal(result.killed, true);
  assert.ok(Date.now() - started < 5_000);
  const grandchild = Number(result.stdout.trim());
  assert.ok(grandchild > 0, result.stdout);
  assert.ok(await dies(grandchild), 'the sleep the tool started is killed too');
});

test('inside a job, a tool gets its own limit cut to what is left of the job', async () => {
  assert.equal(toolTimeout(60_000), 60_000, "outside a job: the tool's own limit");
  await inJob({ timeoutMs: 400 }, async () => {
    assert.ok(toolTimeout(60_000) <= 400);
    assert.equal(toolTimeout(100), 100, 'a shorter own limit stands');
    const result = await runTool('sleep', ['30'], { timeoutMs: 60_000, debianPackage: 'coreutils' });
    assert.equal(result.killed, true);
    assert.ok(result.timeoutMs <= 400, `limit ${result.timeoutMs}`);
    await sleep(450);
    assert.equal(toolTimeout(60_000), 1, 'past the deadline a tool is killed at once');
  });
});

test("a running tool is listed in its job's registry until it exits, and killAll ends it", async () => {
  const children = ChildRegistry.create();
  const run = inJob({ children }, () => runTool('sleep', ['30'], { timeoutMs: 60_000, debianPackage: 'coreutils' }));
  let listed: number[] = [];
  for (let i = 0; i < 40 && listed.length === 0; i++, await sleep(25)) listed = children.running();
  assert.equal(listed.length, 1);
  assert.equal(children.killAll(), 1);
  const result = await run;
  assert.notEqual(result.code, 0);
  assert.deepEqual(children.running(), []);
});

test('aborting a job mid-OCR kills its tools and removes its temporary files', async () => {
  // A pdftoppm that never finishes (a shell script sleeping in a child of its own), first on the worker's PATH: only
  // killing the job's tools ends it, and only killing its process group ends the sleep.
  await mkdir(join(dir.path, 'bin'), { recursive: true });
  const bin = await dir.file('bin/pdftoppm', '#!/bin/sh\nsleep 60\n');
  await chmod(bin, 0o755);
  const page = await scannedPage(['Una página escaneada.'], 'jpeg');
  const path = await dir.file('escaneado.pdf', imageOnlyPdf([page, page]));
  // A temporary folder of this test's own (the pool's threads read TMPDIR when they start): other test files running
  // at the same time create and remove cerebro-job-* folders in the shared /tmp.
  const ownTmp = join(dir.path, 'tmp');
  await mkdir(ownTmp, { recursive: true });
  const savedPath = process.env.PATH;
  const savedTmp = process.env.TMPDIR;
  process.env.PATH = `${dirname(bin)}:${savedPath}`;
  process.env.TMPDIR = ownTmp;
  const pool = createPreparePool({ threads: 1 });
  try {
    const abort = new AbortController();
    const job = pool.prepare({ path, name: 'escaneado.pdf' }, abort.signal);
    job.catch(() => {});
    let tools: number[] = [];
    for (let i = 0; i < 400 && tools.length === 0; i++, await sleep(25)) tools = await childTools(['pdftoppm']);
    assert.equal(tools.length, 1, 'the render started');
    const sleeper = (await readFile(`/proc/${tools[0]}/task/${tools[0]}/children`, 'utf8'))
      .trim()
      .split(/\s+/)
      .map(Number)[0]!;
    assert.ok(sleeper > 0, 'the tool started its own child');
    abort.abort();
    await assert.rejects(job);
    assert.ok(await dies(tools[0]!, 2_000), 'the tool is killed with its job');
    assert.ok(await dies(sleeper, 2_000), 'and what it started, with its process group');
    await sleep(400); // the late sweep
    assert.deepEqual(await readdir(ownTmp), [], 'no temporary folder of the job is left');
  } finally {
    process.env.PATH = savedPath;
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    await pool.close();
  }
});

test("a multi-page TIFF gets each page's OCR time, not one page's", () => {
  assert.equal(ocrTimeoutMs(1), OCR_LIMITS.pageTimeoutMs);
  assert.equal(ocrTimeoutMs(5), 5 * OCR_LIMITS.pageTimeoutMs);
  assert.equal(
    ocrTimeoutMs(10_000),
    OCR_LIMITS.maxPages * OCR_LIMITS.pageTimeoutMs,
    'bounded like the pages it may have',
  );
});
