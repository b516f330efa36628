// A job's temporary folder is named by its owner and made only when a tool asks for room: most documents (text,
// HTML: every page of a crawl) never need one, and making and removing it cost two file-system round trips each.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, watch } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { tempDir, type TempDir } from '../testing/fixtures.js';
import { imageOnlyPdf, scannedPage } from '../testing/scanned.js';
import { inJob, jobTempDir } from './job-scope.js';
import { createPreparePool } from './pool.js';

let dir: TempDir;
before(async () => {
  dir = await tempDir();
});
after(() => dir.cleanup());

test("a job's folder is made at its first temporary folder, private, and holds each fresh one", async () => {
  const tempRoot = join(dir.path, `job-${randomUUID()}`);
  let told = 0;
  const onMake = () => {
    told++;
    assert.ok(!existsSync(tempRoot), 'the owner is told before the folder is made');
  };
  await inJob({ tempRoot, onMake }, async () => {
    await assert.rejects(stat(tempRoot), { code: 'ENOENT' }, 'not made before a tool asks');
    const first = await jobTempDir('uno-');
    const second = await jobTempDir('dos-');
    assert.equal((await stat(tempRoot)).mode & 0o777, 0o700, 'only this user may enter it');
    assert.deepEqual(
      [first, second].map((d) => d.startsWith(`${tempRoot}/`)),
      [true, true],
    );
    assert.notEqual(first, second);
    assert.deepEqual((await readdir(tempRoot)).sort(), [first, second].map((d) => d.slice(tempRoot.length + 1)).sort());
  });
  assert.equal(told, 1, 'told once, at the first folder');
});

test('a text document is prepared without a temporary folder', async () => {
  // A folder of this test's own as TMPDIR: other test files make and remove cerebro-job-* folders in the shared /tmp.
  const ownTmp = join(dir.path, 'tmp');
  await mkdir(ownTmp, { recursive: true });
  const path = await dir.file('nota.txt', 'Una nota de texto con algunas palabras que indexar.\n'.repeat(50));
  const savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = ownTmp;
  const pool = createPreparePool({ threads: 1 });
  try {
    // Looked at while the job runs (its passages arrive before it ends): a folder made for it would be there.
    const looks: Promise<string[]>[] = [];
    const result = await pool.prepare({ path, name: 'nota.txt' }, undefined, () => looks.push(readdir(ownTmp)));
    assert.ok(result.ok);
    assert.ok(looks.length > 0, 'passages arrived while the job ran');
    assert.deepEqual((await Promise.all(looks)).flat(), [], 'no folder was made while it ran');
    assert.deepEqual(await readdir(ownTmp), []);
  } finally {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    await pool.close();
  }
});

test('a job whose tool made its folder (OCR of a scanned PDF) has it removed when it ends', async () => {
  const ownTmp = join(dir.path, 'tmp-ocr');
  await mkdir(ownTmp, { recursive: true });
  const page = await scannedPage(['Una página escaneada con texto.'], 'jpeg');
  const path = await dir.file('escaneado.pdf', imageOnlyPdf([page]));
  const made: string[] = [];
  const watcher = watch(ownTmp, (_event, name) => {
    if (name) made.push(name);
  });
  const savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = ownTmp;
  const pool = createPreparePool({ threads: 1 });
  try {
    const result = await pool.prepare({ path, name: 'escaneado.pdf' });
    assert.ok(result.ok);
    await new Promise((r) => setTimeout(r, 50)); // the watcher's last events
    assert.ok(
      made.some((n) => n.startsWith('cerebro-job-')),
      'the OCR made the job folder',
    );
    assert.deepEqual(await readdir(ownTmp), [], 'and it was removed with the job');
  } finally {
    watcher.close();
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    await pool.close();
  }
});
