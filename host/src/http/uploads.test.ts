// A refused upload rejects only once every file write it interrupted is closed: the caller then removes the upload
// folder, and a write still opening its file would put one back into it (the removal fails and the file stays).
// Files that open slowly make every refusal meet writes still open, whatever the machine's speed.
import assert from 'node:assert/strict';
import { close, open, write } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { test } from 'node:test';
import { UploadError } from '@cerebro/sdk';
import type { HostConfig } from '../config/host-config.js';
import { BusboyUploadReceiver } from './uploads.js';

/** A file that takes `delayMs` to open: a disk slower than the parser. Counts files not yet closed. */
class SlowFile extends Writable {
  private fd: number | undefined;

  constructor(
    private readonly path: string,
    private readonly openFiles: { count: number },
  ) {
    super();
    openFiles.count++;
  }

  override _construct(callback: (err?: Error | null) => void): void {
    setTimeout(
      () =>
        open(this.path, 'w', (err, fd) => {
          this.fd = fd;
          callback(err);
        }),
      40,
    );
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    write(this.fd!, chunk, (err) => callback(err));
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    const done = () => {
      this.openFiles.count--;
      callback(err);
    };
    if (this.fd === undefined) done();
    else close(this.fd, done);
  }
}

class SlowDiskReceiver extends BusboyUploadReceiver {
  readonly openFiles = { count: 0 };

  protected override openFile(path: string): Writable {
    return new SlowFile(path, this.openFiles);
  }
}

/** A request carrying `body` in one piece, as a client that sent it all at once. */
function requestOf(body: string, boundary: string): IncomingMessage {
  const req = new PassThrough() as unknown as IncomingMessage & { complete: boolean };
  req.headers = { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': `${body.length}` };
  req.complete = false;
  (req as unknown as PassThrough).end(body);
  return req;
}

const part = (boundary: string, name: string, filename?: string, content = 'contenido') =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"` +
  (filename ? `; filename="${filename}"\r\nContent-Type: text/plain` : '') +
  `\r\n\r\n${content}\r\n`;

const B = 'limite';
const files = (count: number) => Array.from({ length: count }, (_, i) => part(B, 'archivos', `n${i + 1}.txt`)).join('');

const refusals: { name: string; body: string; reason: string }[] = [
  { name: 'one file too many', body: `${files(6)}--${B}--\r\n`, reason: 'too_many_files' },
  {
    name: 'a field sent twice',
    body: `${files(4)}${part(B, 'campo')}${part(B, 'campo')}--${B}--\r\n`,
    reason: 'malformed',
  },
  {
    name: 'too many fields',
    body: `${files(4)}${part(B, 'a')}${part(B, 'b')}${part(B, 'c')}--${B}--\r\n`,
    reason: 'too_many_fields',
  },
  {
    name: 'a file too large',
    body: `${files(4)}${part(B, 'archivos', 'grande.txt', 'x'.repeat(500))}--${B}--\r\n`,
    reason: 'file_too_large',
  },
  {
    name: 'a malformed part header',
    body: `${files(4)}--${B}\r\nesto no es una cabecera\r\n\r\n`,
    reason: 'malformed',
  },
];

for (const refusal of refusals) {
  test(`uploads: ${refusal.name} is refused after the files being written are closed, and leaves none`, async (t) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-uploads-'));
    t.after(() => rm(dataDir, { recursive: true, force: true }));
    const receiver = new SlowDiskReceiver({ dataDir } as HostConfig);
    const refused = await receiver
      .receive(requestOf(refusal.body, B), { maxFileBytes: 100, maxFiles: 5, maxFields: 2 })
      .then(
        () => assert.fail('the upload was accepted'),
        (err: unknown) => err,
      );
    assert.ok(refused instanceof UploadError, String(refused));
    assert.equal(refused.reason, refusal.reason);
    assert.equal(receiver.openFiles.count, 0, 'a file was still being written when the upload was refused');
    await new Promise((r) => setTimeout(r, 100)); // long enough for any late write to have opened its file
    const left = await readdir(join(dataDir, 'tmp'), { recursive: true });
    assert.deepEqual(
      left.filter((p) => p.includes('upload-')),
      [],
    );
  });
}

test('uploads: an accepted form has every file closed and in place', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-uploads-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const receiver = new SlowDiskReceiver({ dataDir } as HostConfig);
  const form = await receiver.receive(requestOf(`${files(5)}${part(B, 'campo')}--${B}--\r\n`, B), {
    maxFileBytes: 100,
    maxFiles: 5,
  });
  assert.equal(receiver.openFiles.count, 0);
  assert.deepEqual(
    form.files.map((f) => [f.filename, f.bytes]),
    [1, 2, 3, 4, 5].map((i) => [`n${i}.txt`, 9]),
  );
  assert.equal(form.fields.campo, 'contenido');
  await form.cleanup();
});
