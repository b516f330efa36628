// One contract for every originals store (`CEREBRO_ARCHIVOS`): the data folder, a shared folder (`fs:<dir>`) and an
// S3-compatible store (s3rver on a free local port; skipped with the reason when it cannot start).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { parseOriginalsSetting } from '../../config/originals-setting.js';
import { startLocalS3 } from '../../test-kit/local-s3.js';
import type { OriginalsStore } from '../port/originals-store.js';
import { openOriginalsStore } from './open-originals-store.js';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

interface Case {
  name: string;
  /** The store, on a fresh data folder, or the reason it cannot run here. */
  open(root: string): Promise<{ store: OriginalsStore; close(): Promise<void> } | { skip: string }>;
}

const CASES: Case[] = [
  {
    name: 'carpeta_de_datos',
    open: async (root) => ({
      store: await openOriginalsStore(parseOriginalsSetting({}), join(root, 'data')),
      close: async () => undefined,
    }),
  },
  {
    name: 'carpeta',
    open: async (root) => {
      await mkdir(join(root, 'compartida'));
      const setting = parseOriginalsSetting({ CEREBRO_ARCHIVOS: `fs:${join(root, 'compartida')}` });
      return { store: await openOriginalsStore(setting, join(root, 'data')), close: async () => undefined };
    },
  },
  {
    name: 's3',
    open: async (root) => {
      const s3 = await startLocalS3(join(root, 's3'));
      if ('skip' in s3) return s3;
      const store = await openOriginalsStore(parseOriginalsSetting(s3.env('archivos/')), join(root, 'data'));
      return { store, close: () => s3.close() };
    },
  },
];

for (const c of CASES) {
  describe(`originals store: ${c.name}`, () => {
    const withStore = (name: string, body: (store: OriginalsStore, root: string) => Promise<void>) =>
      test(name, async (t) => {
        const root = await mkdtemp(join(tmpdir(), 'cerebro-archivos-'));
        t.after(() => rm(root, { recursive: true, force: true }));
        const opened = await c.open(root);
        if ('skip' in opened) {
          t.skip(opened.skip);
          return;
        }
        t.after(() => opened.close());
        assert.equal(opened.store.kind, c.name);
        await body(opened.store, root);
      });

    withStore(
      'a stored file reads back byte for byte, streamed and as a local file; the upload file is consumed',
      async (store, root) => {
        const content = Buffer.alloc(3 * 1024 * 1024 + 17);
        for (let i = 0; i < content.length; i++) content[i] = (i * 31) % 251;
        const upload = join(root, 'subida');
        await writeFile(upload, content);
        const stored = await store.putFile('espacio', upload);
        assert.match(stored, /^documentos\/[0-9a-f]{24}\/[0-9a-f-]{36}$/);
        assert.equal(existsSync(upload), false, 'the upload file is moved or consumed');
        const read = await store.read(stored);
        assert.ok(read);
        assert.equal(read.bytes, content.length);
        assert.equal(sha(await bytesOf(read.stream)), sha(content));
        const local = await store.local(stored);
        assert.equal(sha(await readFile(local.path)), sha(content));
        await local.release();
        if (store.kind === 's3') assert.equal(existsSync(local.path), false, 'a temporary copy goes when released');
        else assert.equal(existsSync(local.path), true, 'a folder store lends the original itself');
      },
    );

    withStore(
      'a file from another file system (a shared mount) is copied whole, then the upload file goes',
      async (store, root) => {
        // /dev/shm is a tmpfs on Linux: rename() from it to the store's folder fails with EXDEV.
        if (!existsSync('/dev/shm')) return;
        const other = await mkdtemp('/dev/shm/cerebro-archivos-');
        try {
          const upload = join(other, 'subida');
          await writeFile(upload, 'desde otro sistema de archivos');
          const stored = await store.putFile('espacio', upload);
          assert.equal(existsSync(upload), false);
          assert.equal(
            (await bytesOf((await store.read(stored))!.stream)).toString(),
            'desde otro sistema de archivos',
          );
          if (store.kind !== 's3') {
            const folder = join(store.kind === 'carpeta' ? join(root, 'compartida') : join(root, 'data'), stored, '..');
            assert.deepEqual(
              (await readdir(folder)).filter((n) => n.startsWith('.')),
              [],
              'no partial file left',
            );
          }
        } finally {
          await rm(other, { recursive: true, force: true });
        }
      },
    );

    withStore(
      'bytes in memory are stored whole under a new name each time; no partial file is left beside',
      async (store, root) => {
        const a = await store.putBytes('espacio', new TextEncoder().encode('versión 1'));
        const b = await store.putBytes('espacio', new TextEncoder().encode('versión 2'));
        assert.notEqual(a, b);
        assert.equal((await bytesOf((await store.read(a))!.stream)).toString(), 'versión 1');
        assert.equal((await bytesOf((await store.read(b))!.stream)).toString(), 'versión 2');
        if (store.kind !== 's3') {
          const folder = join(store.kind === 'carpeta' ? join(root, 'compartida') : join(root, 'data'), a, '..');
          assert.deepEqual(
            (await readdir(folder)).filter((n) => n.startsWith('.')),
            [],
          );
        }
      },
    );

    withStore(
      'a retired original is gone after the purge; a discarded one at once; absent ones are no error',
      async (store) => {
        const kept = await store.putBytes('espacio', new TextEncoder().encode('sigue'));
        const retired = await store.putBytes('espacio', new TextEncoder().encode('retirado'));
        const orphan = await store.putBytes('otro', new TextEncoder().encode('huérfano'));
        await store.retire(retired);
        await store.purgeRetired();
        assert.equal(await store.read(retired), null);
        await store.discard(orphan);
        assert.equal(await store.read(orphan), null);
        assert.ok(await store.read(kept));
        await store.retire('documentos/no/existe');
        await store.discard('documentos/no/existe');
        assert.equal(await store.read('documentos/no/existe'), null);
        await assert.rejects(store.local('documentos/no/existe'));
      },
    );
  });
}

// s3rver answers HEAD on a bucket without checking the signature, so the refused keys' 403 is not exercised here.
test('an S3 store whose bucket does not exist stops the start with what to check', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'cerebro-archivos-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const s3 = await startLocalS3(join(root, 's3'));
  if ('skip' in s3) {
    t.skip(s3.skip);
    return;
  }
  t.after(() => s3.close());
  const env = s3.env('x/');
  const open = (changes: Record<string, string>) =>
    openOriginalsStore(parseOriginalsSetting({ ...env, ...changes }), join(root, 'data'));
  await assert.rejects(
    open({ CEREBRO_ARCHIVOS: env.CEREBRO_ARCHIVOS!.replace('s3://cerebro/', 's3://otro-cubo/') }),
    /el cubo "otro-cubo" no existe/,
  );
  assert.equal((await open({})).kind, 's3');
});
