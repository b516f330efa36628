// The crawl's document writer: pages that become ready while two calls are in flight go together in the next one
// (`putMany`), a name being written waits for a later batch, and a batch the host refuses whole (the storage quota)
// is put page by page, so the pages that fit are stored and each refused one fails with its own reason.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiError, type DocumentInput, type DocumentsService } from '@cerebro/sdk';
import { startLab, waitForRun } from './test-support.js';
import { DocumentWriter } from './store/document-writer.js';

/** A documents service that records its calls and holds at most `room` documents (the account's quota). */
function recordingDocuments(room = Infinity) {
  const calls: string[][] = [];
  const stored = new Set<string>();
  const fits = (inputs: readonly DocumentInput[]) =>
    stored.size + inputs.filter((i) => !stored.has(i.nombre)).length <= room;
  const service = {
    async put(_space: string, input: DocumentInput) {
      calls.push([input.nombre]);
      await new Promise((r) => setTimeout(r, 5));
      if (!fits([input])) throw apiError('storage_quota_documents');
      stored.add(input.nombre);
      return {} as never;
    },
    async putMany(_space: string, inputs: readonly DocumentInput[]) {
      calls.push(inputs.map((i) => i.nombre));
      await new Promise((r) => setTimeout(r, 5));
      if (!fits(inputs)) throw apiError('storage_quota_documents');
      for (const i of inputs) stored.add(i.nombre);
      return [];
    },
  } as unknown as DocumentsService;
  return { service, calls, stored };
}

const input = (nombre: string): DocumentInput => ({ nombre, contenido: nombre, tipo: 'text/plain' });

test('pages ready while two calls are in flight go together in the next one; a name being written waits', async () => {
  const { service, calls } = recordingDocuments();
  const writer = new DocumentWriter(service, 's');
  await Promise.all(['a', 'b', 'c', 'b', 'd'].map((n) => writer.put(input(n))));
  assert.deepEqual(calls, [['a'], ['b'], ['c', 'd'], ['b']]);
});

test('a batch refused whole is put page by page: those that fit are stored, the others reject alone', async () => {
  const { service, calls, stored } = recordingDocuments(3);
  const writer = new DocumentWriter(service, 's');
  const outcomes = await Promise.allSettled(['a', 'b', 'c', 'd', 'e'].map((n) => writer.put(input(n))));
  assert.deepEqual(
    outcomes.map((o) => o.status),
    ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected'],
  );
  assert.equal((outcomes[3] as PromiseRejectedResult).reason.code, 'storage_quota_documents');
  assert.deepEqual([...stored], ['a', 'b', 'c']);
  assert.deepEqual(calls, [['a'], ['b'], ['c', 'd', 'e'], ['c'], ['d'], ['e']]);
});

test("a crawl past the account's document quota stores the pages that fit and fails each other one", async (t) => {
  const lab = await startLab(t, {
    env: { CEREBRO_QUOTA_DOCUMENTS: '5', CEREBRO_FUENTES_CONCURRENCIA_POR_EJECUCION: '8' },
    site: { generatedPages: 12 },
  });
  const created = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'sitemap', url: `${lab.site.url}/gen/sitemap.xml`, lanzar: true },
  });
  assert.equal(created.status, 201, created.text);
  const run = (await waitForRun(lab, created.body.id)).ultima_ejecucion;
  assert.equal(run.estado, 'completada', JSON.stringify(run));
  assert.deepEqual(
    [run.contadores.leidas, run.contadores.nuevas, run.contadores.fallidas],
    [12, 5, 7],
    JSON.stringify(run.contadores),
  );
  assert.equal(run.errores.length, 7);
  for (const e of run.errores) {
    assert.equal(e.codigo, 'indexacion');
    assert.match(e.motivo, /máximo de 5 documentos/);
  }
  const listed = await lab.h.client.get(`/rag/${lab.h.spaceId}/documents`);
  assert.equal(listed.body.total, 5);
});
