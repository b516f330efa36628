// The reading threads: a task per thread, a thread ended by an abort or after a while idle, errors passed on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkerResult, WorkerTask } from './page-worker.js';
import { ReaderThreads } from './reader-threads.js';

const WORKER = new URL('./page-worker.js', import.meta.url);
const never = new AbortController().signal;
const html = (text: string): WorkerTask => ({
  kind: 'html',
  body: new Uint8Array(Buffer.from(`<html><head><title>T</title></head><body><p>${text}</p></body></html>`)),
  contentType: 'text/html',
  url: 'https://a.test/',
});
const run = (threads: ReaderThreads, task: WorkerTask, signal = never) =>
  threads.run<WorkerResult>(task, [task.body.buffer], signal);

test('a task is read on a thread, which is reused, then ended after a while idle', async () => {
  const threads = new ReaderThreads(WORKER, 1, {}, 100);
  try {
    const first = (await run(threads, html('uno'))) as { mainHtml: string };
    assert.match(first.mainHtml, /uno/);
    assert.equal(threads.size, 1);
    await run(threads, html('dos'));
    assert.equal(threads.size, 1, 'the idle thread took the second task');
    await sleep(300);
    assert.equal(threads.size, 0, 'ended once idle');
    assert.match(((await run(threads, html('tres'))) as { mainHtml: string }).mainHtml, /tres/);
  } finally {
    await threads.close();
  }
});

test("an abort rejects with the signal's reason at once and ends the thread; an error in the task is passed on", async () => {
  const threads = new ReaderThreads(WORKER, 1, {});
  try {
    // About 8 MB of paragraphs: seconds of parsing, cut after 50 ms.
    const big = html('<p>Texto de relleno para un cuerpo grande.</p>'.repeat(200_000));
    const cancel = new AbortController();
    const started = Date.now();
    setTimeout(() => cancel.abort(new Error('cancelada')), 50);
    await assert.rejects(run(threads, big, cancel.signal), /cancelada/);
    assert.ok(Date.now() - started < 1000, 'within a second');
    assert.equal(threads.size, 0);
    // Gzip magic bytes and nothing valid after them: gunzip throws in the thread.
    const broken: WorkerTask = { kind: 'sitemap', body: new Uint8Array([0x1f, 0x8b, 1, 2, 3]) };
    await assert.rejects(run(threads, broken), /compression|header|unexpected/i);
    assert.match(((await run(threads, html('después'))) as { mainHtml: string }).mainHtml, /después/);
  } finally {
    await threads.close();
  }
  await assert.rejects(run(threads, html('cerrado')), /closed/);
});
