// Issue #23, item 2: no tenant can starve another. Storage quotas per account (413 bytes / 422 documents, checked
// before anything is stored, shown in /cuenta, set by the operator), and per-space question turns (503 with
// Retry-After when a space's line is full, another space unaffected, the wait in the access log and metrics).
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { GUIDE_MD, filesForm, waitIndexed } from './support/rag.js';

const storedFiles = async (dataDir: string) =>
  (await readdir(join(dataDir, 'documentos'), { recursive: true }).catch(() => [] as string[])).filter((p) =>
    String(p).includes('/'),
  );

test('storage quotas: shown in /cuenta, 413 past the bytes, 422 past the documents, a replacement counts its difference, the operator raises them', async (t) => {
  const h = await startTestHost(t, { env: { CEREBRO_QUOTA_BYTES: '100', CEREBRO_QUOTA_DOCUMENTS: '2' } });
  const base = `/rag/${h.spaceId}`;
  const storage = async () => (await h.client.get(`/companies/${h.spaceId}/cuenta`)).body.cuenta.almacenamiento;
  assert.deepEqual(await storage(), { bytes: 0, documentos: 0, max_bytes: 100, max_documentos: 2 });

  assert.equal(
    (await h.client.post(`${base}/load_documents`, { body: filesForm({ 'a.txt': 'x'.repeat(60) }) })).status,
    202,
  );
  assert.deepEqual(await storage(), { bytes: 60, documentos: 1, max_bytes: 100, max_documentos: 2 });

  // 60 + 41 > 100: refused whole, before anything moves into storage.
  const over = await h.client.post(`${base}/load_documents`, { body: filesForm({ 'b.txt': 'y'.repeat(41) }) });
  assert.equal(over.status, 413);
  assert.equal(over.body.codigo, 'storage_quota_bytes');
  assert.match(over.body.detail, /cuota de almacenamiento/);
  assert.equal((await h.client.get(`${base}/documents`)).body.total, 1);
  assert.equal((await storedFiles(h.dataDir)).length, 1);

  // Replacing a.txt (60 bytes) with 95 adds 35: it fits although 95 + 60 would not.
  const replaced = await h.client.post(`${base}/load_documents`, { body: filesForm({ 'a.txt': 'z'.repeat(95) }) });
  assert.equal(replaced.status, 202);
  assert.equal(replaced.body.documentos[0].version, 2);
  assert.equal((await h.client.post(`${base}/load_documents`, { body: filesForm({ 'c.txt': 'c' }) })).status, 202);
  assert.deepEqual(await storage(), { bytes: 96, documentos: 2, max_bytes: 100, max_documentos: 2 });

  const third = await h.client.post(`${base}/load_documents`, { body: filesForm({ 'd.txt': 'd' }) });
  assert.equal(third.status, 422);
  assert.equal(third.body.codigo, 'storage_quota_documents');
  assert.match(third.body.detail, /máximo de 2 documentos/);
  // Two files in one request are checked together: nothing of the request is kept.
  const pair = await h.client.post(`${base}/load_documents`, { body: filesForm({ 'a.txt': 'a', 'e.txt': 'e' }) });
  assert.equal(pair.status, 422);
  assert.equal((await h.client.get(`${base}/documents`)).body.total, 2);

  // The operator raises this account's quota; null returns a field to the default.
  const operator = h.client.as((await h.admin.issueOperatorCredential('ops')).token);
  const set = await operator.patch(`/admin/cuentas/${h.accountId}/cuota`, {
    json: { max_documentos: 3, max_bytes: 0 },
  });
  assert.equal(set.status, 200, set.text);
  assert.deepEqual(set.body, { cuenta: h.accountId, max_bytes: 0, max_documentos: 3 });
  assert.deepEqual(await storage(), { bytes: 96, documentos: 2, max_bytes: null, max_documentos: 3 });
  assert.equal(
    (await h.client.post(`${base}/load_documents`, { body: filesForm({ 'd.txt': 'd'.repeat(500) }) })).status,
    202,
  );
  assert.equal(
    (await operator.patch(`/admin/cuentas/${h.accountId}/cuota`, { json: { max_bytes: null } })).body.max_bytes,
    null,
  );
  assert.equal((await storage()).max_bytes, 100);
  // Already over the bytes: refused before the body is read.
  const full = await h.client.post(`${base}/load_documents`, { body: filesForm({ 'f.txt': 'f' }) });
  assert.equal(full.status, 413);
  assert.equal(full.body.codigo, 'storage_quota_bytes');

  // Bad quotas are a 422 naming the field; an unknown account a 404.
  const bad = await operator.patch(`/admin/cuentas/${h.accountId}/cuota`, { json: { max_bytes: -1 } });
  assert.equal(bad.status, 422);
  assert.deepEqual(bad.body.detail[0].loc, ['body', 'max_bytes']);
  assert.equal((await operator.patch('/admin/cuentas/cta_no_existe/cuota', { json: { max_bytes: 5 } })).status, 404);
});

test('questions take turns per space: a full line answers 503 with Retry-After, another space is served, waits are logged and measured', async (t) => {
  const h = await startTestHost(t, {
    env: {
      CEREBRO_QUESTIONS_PER_SPACE: '1',
      CEREBRO_QUESTION_QUEUE_PER_SPACE: '2',
      CEREBRO_SEARCH_THREADS: '1',
      CEREBRO_SEARCH_INLINE_PASSAGES: '0',
    },
  });
  // Every space searched on the thread (small ones are matched inline by default), so a question holds its turn.
  await h.admin.createSpace({ id: 'otro', ownerId: h.ownerId, modules: ['api'] });
  for (const space of [h.spaceId, 'otro']) {
    await h.client.post(`/rag/${space}/load_documents`, { body: filesForm({ 'guia.md': GUIDE_MD }) });
    await h.client.patch(`/rag/${space}/config`, { json: { cache_segundos: 0 } });
    await waitIndexed(h.client, space);
  }
  const ask = (space: string, i: number) =>
    h.client.post(`/rag/${space}/conversations`, { json: { pregunta: `¿Cómo actualizo el sistema? ${i}` } });

  const flood = await Promise.all(Array.from({ length: 12 }, (_, i) => ask(h.spaceId, i)));
  const other = await ask('otro', 0);
  const statuses = flood.map((r) => r.status);
  assert.ok(statuses.includes(200), String(statuses));
  const busy = flood.filter((r) => r.status === 503);
  assert.ok(busy.length > 0, `one running and two waiting at most: ${statuses}`);
  assert.equal(busy[0]!.body.codigo, 'space_busy');
  assert.match(busy[0]!.body.detail, /preguntas esperando turno/);
  assert.equal(busy[0]!.headers.get('retry-after'), '2');
  assert.equal(other.status, 200, "another space is not refused for the first one's line");

  // Refused questions are refunded like any failed paid request: only the answered ones were charged.
  const pool = (await h.client.get(`/cuentas/${h.accountId}/bolsa?movimientos=100`)).body;
  const charged = pool.movimientos.filter((m: { motivo: string }) => m.motivo === 'consumo').length;
  const refunded = pool.movimientos.filter((m: { motivo: string }) => m.motivo === 'reembolso').length;
  assert.equal(charged - refunded, statuses.filter((s) => s === 200).length + 1);

  const metrics = (await h.client.get('/metrics', { key: (await h.admin.issueOperatorCredential('ops')).token })).text;
  const waited = /cerebro_peticion_espera_segundos_count\{ruta="POST \/rag\/:espacio\/conversations"\} (\d+)/.exec(
    metrics,
  );
  assert.equal(Number(waited?.[1]), 13);
  assert.match(
    metrics,
    /cerebro_peticion_espera_segundos_bucket\{ruta="POST \/rag\/:espacio\/conversations",le="0.0005"\}/,
  );
});

test("indexing takes turns between spaces: one space's backlog delays another space's document by one job at most", async (t) => {
  const h = await startTestHost(t);
  await h.admin.createSpace({ id: 'vecino', ownerId: h.ownerId, modules: ['api'] });
  // Ten documents large enough to be still queued when the neighbour's one arrives.
  const paragraph = 'El servidor guarda copias de seguridad cada noche en el disco externo. ';
  const backlog = Object.fromEntries(
    Array.from({ length: 10 }, (_, i) => [`lote-${i}.txt`, `${paragraph.repeat(3000)} ${i}`]),
  );
  assert.equal((await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: filesForm(backlog) })).status, 202);
  const neighbour = await h.client.post('/rag/vecino/load_documents', {
    body: filesForm({ 'unico.txt': 'El horario de atención es de nueve a cinco.' }),
  });
  assert.equal(neighbour.status, 202);
  const done = (await waitIndexed(h.client, 'vecino')).documentos[0];
  const arrived = Date.parse(neighbour.body.documentos[0].creado);
  const finished = Date.parse(done.actualizado);
  const backlogDocs = (await waitIndexed(h.client, h.spaceId, 60_000)).documentos as { actualizado: string }[];
  // Of the backlog, only the document already running when the neighbour's arrived may finish before it.
  const overtaking = backlogDocs.filter(
    (d) => Date.parse(d.actualizado) > arrived && Date.parse(d.actualizado) < finished,
  );
  assert.ok(
    overtaking.length <= 1,
    `${overtaking.length} documents of the backlog were indexed before the neighbour's`,
  );
  assert.ok(
    backlogDocs.filter((d) => Date.parse(d.actualizado) > finished).length >= 5,
    'most of the backlog came after it',
  );
});
