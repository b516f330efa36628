// CEREBRO_ARCHIVOS=s3://… end to end: a real `cerebro serve` keeps its originals in an S3-compatible store (s3rver on
// a free local port; skipped with the reason when it cannot start). An upload is indexed from the store, downloads
// byte for byte through the API, and its object goes when the document is deleted; nothing lands in the data folder.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startLocalS3 } from '@cerebro/host/test-kit';
import { startServer } from './support/server-process.js';

const SPACE = 'demo';

/** The objects s3rver holds under `prefix` of its bucket (one `._S3rver_object` file per object). */
function objects(s3Dir: string, bucket: string, prefix: string): string[] {
  const root = join(s3Dir, bucket, prefix);
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true }) as string[]).filter((p) => p.endsWith('._S3rver_object'));
}

test('with CEREBRO_ARCHIVOS=s3://…, an upload is indexed, downloads byte for byte and its object goes with it; a store that stops answering is a 503', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'cerebro-archivos-s3-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const s3Dir = join(root, 's3');
  const s3 = await startLocalS3(s3Dir);
  if ('skip' in s3) {
    t.skip(s3.skip);
    return;
  }
  let s3Open = true;
  t.after(() => (s3Open ? s3.close() : undefined));
  const dataDir = join(root, 'data');
  const server = await startServer(dataDir, s3.env('cerebro/'));
  t.after(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) await server.stop();
  });
  const secrets = await readFile(join(dataDir, 'primer-arranque.txt'), 'utf8');
  const key = /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(secrets)?.[0];
  assert.ok(key, 'the first run wrote the demo key');
  const call = (path: string, init: RequestInit = {}, token = key) =>
    fetch(`${server.url}/api${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  const operator = /Credencial de operador[^:]*:\s*(\S+)/.exec(secrets)?.[1];
  assert.ok(operator, 'the first run wrote the operator credential');
  const health = (await (await call('/health', {}, operator)).json()) as { cerebro: Record<string, string> };
  assert.equal(health.cerebro.archivos, 's3', 'health names the store');

  // Non-ASCII text of some size, with a word to find.
  const text = `${'Manual de la caldera: purgar los radiadores cada otoño. '.repeat(4000)}Palabra clave: zanahoria.\n`;
  const content = Buffer.from(text, 'utf8');
  const form = new FormData();
  form.append('archivos', new Blob([content]), 'caldera.txt');
  const upload = await call(`/rag/${SPACE}/load_documents`, { method: 'POST', body: form });
  assert.equal(upload.status, 202, await upload.clone().text());
  assert.equal(objects(s3Dir, s3.bucket, 'cerebro').length, 1, 'the original is an object of the store');
  assert.equal(existsSync(join(dataDir, 'documentos')), false, 'nothing of it in the data folder');

  const deadline = Date.now() + 30_000;
  let doc: { nombre: string; estado: string } | undefined;
  for (;;) {
    const status = (await (await call(`/rag/${SPACE}/indexing_status`)).json()) as {
      documentos: { nombre: string; estado: string }[];
    };
    doc = status.documentos.find((d) => d.nombre === 'caldera.txt');
    if (doc && doc.estado !== 'en_cola' && doc.estado !== 'procesando') break;
    assert.ok(Date.now() < deadline, `still indexing: ${JSON.stringify(doc)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(doc?.estado, 'listo', JSON.stringify(doc));
  const copies = join(dataDir, 'tmp');
  const leftovers = existsSync(copies)
    ? (readdirSync(copies, { recursive: true }) as string[]).filter((p) => p.includes('originales/'))
    : [];
  assert.deepEqual(leftovers, [], 'the temporary copy indexing read is removed');

  const download = await call(`/rag/${SPACE}/documents/caldera.txt`);
  assert.equal(download.status, 200);
  assert.equal(download.headers.get('content-length'), String(content.length));
  const got = Buffer.from(await download.arrayBuffer());
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  assert.equal(sha(got), sha(content), 'byte for byte');

  const removed = await call(`/rag/${SPACE}/documents/caldera.txt`, { method: 'DELETE' });
  assert.equal(removed.status, 200);
  assert.deepEqual(objects(s3Dir, s3.bucket, 'cerebro'), [], 'the object is gone');
  assert.equal((await call(`/rag/${SPACE}/documents/caldera.txt`)).status, 404);

  // The store stops answering: an upload is refused with 503 originals_unavailable (never a bare 500) and leaves
  // no record behind.
  await s3.close();
  s3Open = false;
  const down = new FormData();
  down.append('archivos', new Blob(['otra cosa']), 'otra.txt');
  const refused = await call(`/rag/${SPACE}/load_documents`, { method: 'POST', body: down });
  assert.equal(refused.status, 503);
  assert.equal(refused.headers.get('retry-after'), '2');
  assert.equal(((await refused.json()) as { codigo: string }).codigo, 'originals_unavailable');
  assert.equal((await call(`/rag/${SPACE}/documents/otra.txt`)).status, 404);
});
