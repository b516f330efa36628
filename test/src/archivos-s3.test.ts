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
import { type LocalS3, startLocalS3 } from '@cerebro/host/test-kit';
import { startServer } from './support/server-process.js';

const SPACE = 'demo';

/** The objects s3rver holds under `prefix` of its bucket (one `._S3rver_object` file per object). */
function objects(s3Dir: string, bucket: string, prefix: string): string[] {
  const root = join(s3Dir, bucket, prefix);
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true }) as string[]).filter((p) => p.endsWith('._S3rver_object'));
}

type Call = (path: string, init?: RequestInit, token?: string) => Promise<Response>;

/** The demo key and the operator credential the first run wrote. */
async function firstRunSecrets(dataDir: string): Promise<{ key: string; operator: string }> {
  const secrets = await readFile(join(dataDir, 'primer-arranque.txt'), 'utf8');
  const key = /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(secrets)?.[0];
  assert.ok(key, 'the first run wrote the demo key');
  const operator = /Credencial de operador[^:]*:\s*(\S+)/.exec(secrets)?.[1];
  assert.ok(operator, 'the first run wrote the operator credential');
  return { key, operator };
}

const caller =
  (url: string, key: string): Call =>
  (path, init = {}, token = key) =>
    fetch(`${url}/api${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });

/** The document once it is no longer queued or processing (within `withinMs`). */
async function settled(call: Call, name: string, withinMs = 30_000): Promise<{ nombre: string; estado: string }> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const status = (await (await call(`/rag/${SPACE}/indexing_status`)).json()) as {
      documentos: { nombre: string; estado: string }[];
    };
    const doc = status.documentos.find((d) => d.nombre === name);
    if (doc && doc.estado !== 'en_cola' && doc.estado !== 'procesando') return doc;
    assert.ok(Date.now() < deadline, `still indexing: ${JSON.stringify(doc)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
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
  const { key, operator } = await firstRunSecrets(dataDir);
  const call = caller(server.url, key);
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

  const doc = await settled(call, 'caldera.txt');
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

test('a worker that finds the store away waits for it: the upload accepted before the outage is indexed once it is back', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'cerebro-archivos-s3-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const s3Dir = join(root, 's3');
  const first = await startLocalS3(s3Dir);
  if ('skip' in first) {
    t.skip(first.skip);
    return;
  }
  let s3: LocalS3 = first;
  t.after(() => s3.close());
  const port = Number(new URL(s3.endpoint).port);
  const dataDir = join(root, 'data');
  const env = s3.env('cerebro/');
  // An api process takes the upload and leaves indexing to a worker process, started once the store is away.
  const api = await startServer(dataDir, env, { args: ['--rol', 'api'] });
  t.after(() => api.stop());
  const call = caller(api.url, (await firstRunSecrets(dataDir)).key);
  const form = new FormData();
  form.append('archivos', new Blob(['Manual de la caldera. Palabra clave: remolacha.\n']), 'caldera.txt');
  const upload = await call(`/rag/${SPACE}/load_documents`, { method: 'POST', body: form });
  assert.equal(upload.status, 202, await upload.clone().text());

  await s3.close();
  const worker = await startServer(dataDir, env, { args: ['--rol', 'worker'] });
  t.after(() => worker.stop());
  await new Promise((r) => setTimeout(r, 1500)); // the worker's first read and its first retry miss the store
  const waiting = (await (await call(`/rag/${SPACE}/indexing_status`)).json()) as {
    documentos: { nombre: string; estado: string }[];
  };
  assert.notEqual(waiting.documentos.find((d) => d.nombre === 'caldera.txt')?.estado, 'fallido', 'waiting, not failed');
  const back = await startLocalS3(s3Dir, s3.bucket, port);
  assert.ok(!('skip' in back), 'the store starts again on its port');
  s3 = back;

  const doc = await settled(call, 'caldera.txt');
  assert.equal(doc.estado, 'listo', JSON.stringify(doc));
  const found = await call(`/rag/${SPACE}/buscar`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pregunta: '¿Cuál es la palabra clave de la caldera?' }),
  });
  assert.equal(found.status, 200, await found.clone().text());
  const passages = ((await found.json()) as { pasajes: { texto: string }[] }).pasajes;
  assert.match(passages[0]?.texto ?? '', /remolacha/, 'the document read from the store is searchable');
});
