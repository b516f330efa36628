// The sdk's Documents and CreditRefunds services as a plugin author gets them from the testing kit: documents added
// with an origin go through the host's indexing and show their `origen` in the documents list, only the plugin's
// own are listed, search ranks the space's passages, an upload replacing one drops its origin, and a refund gives
// back only the plugin's own charge, once.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { definePlugin, HostServices, PUT_MANY_MAX, type CreditRefunds, type DocumentsService } from '@cerebro/sdk';
import { startTestHost } from '@cerebro/sdk/testing';
import { filesForm, waitIndexed } from './support/rag.js';
import { onPostgres } from './support/backend.js';

function libraryPlugin(
  id: string,
  handles: { docs?: DocumentsService; refunds?: CreditRefunds; lastRequest?: string },
) {
  return definePlugin({
    manifest: {
      id,
      version: '1.0.0',
      sdk: '^1.0.0',
      title: id,
      needs: [HostServices.Documents, HostServices.CreditRefunds],
      routes: [
        {
          id: 'pagar',
          method: 'POST',
          path: '/pagar',
          permission: 'escribe',
          credits: 3,
          body: 'none',
          summary: 'Cobra 3 créditos',
        },
      ],
    },
    setup(scope) {
      handles.docs = scope.resolve(HostServices.Documents);
      handles.refunds = scope.resolve(HostServices.CreditRefunds);
      return {
        handlers: {
          pagar: (req) => {
            handles.lastRequest = req.id;
            return { ok: true };
          },
        },
      };
    },
  });
}

const ORIGIN = {
  fuente: 'f1',
  url: 'https://ejemplo.com/precios',
  obtenido: '2026-01-01T00:00:00.000Z',
  etag: '"abc"',
  ultima_modificacion: 'Thu, 01 Jan 2026 00:00:00 GMT',
  hash: 'a'.repeat(64),
};

test('documents with an origin: indexed, listed with origen, own list, search, replace by upload, remove', async (t) => {
  const mine: { docs?: DocumentsService } = {};
  const theirs: { docs?: DocumentsService } = {};
  const h = await startTestHost(t, { plugins: [libraryPlugin('biblioteca', mine), libraryPlugin('otra', theirs)] });
  const docs = mine.docs!;
  const put = await docs.put(h.spaceId, {
    nombre: 'ejemplo.com › precios',
    contenido: '<h1>Precios</h1><p>El plan Básico cuesta 10 euros al mes.</p>',
    tipo: 'text/html',
    origen: ORIGIN,
  });
  assert.deepEqual(
    [put.estado, put.version, put.origen?.modulo, put.origen?.url],
    ['en_cola', 1, 'biblioteca', ORIGIN.url],
  );
  await theirs.docs!.put(h.spaceId, {
    nombre: 'ajeno.md',
    contenido: '# Ajeno\n\nEl horario es de 9 a 18 horas.',
    tipo: 'text/markdown',
    origen: { ...ORIGIN, fuente: 'x', url: null },
  });
  await docs.idle(h.spaceId, { timeoutMs: 20_000 });

  const listed = await h.client.get(`/rag/${h.spaceId}/documents`);
  const record = listed.body.documentos.find((d: any) => d.nombre === 'ejemplo.com › precios');
  assert.deepEqual(record.origen, { modulo: 'biblioteca', ...ORIGIN });
  assert.deepEqual(record.etiquetas, ['fuente:f1'], 'tagged with its source');
  assert.equal(record.estado, 'listo');
  assert.deepEqual(
    (await docs.findOwn(h.spaceId)).map((d) => d.nombre),
    ['ejemplo.com › precios'],
    "only this plugin's documents",
  );
  assert.deepEqual(await docs.findOwn(h.spaceId, { fuente: 'f1' }), await docs.findOwn(h.spaceId));
  assert.deepEqual(await docs.findOwn(h.spaceId, { fuente: 'otra-fuente' }), []);
  if (!onPostgres) {
    // The deprecated synchronous reads (SQLite only: PostgreSQL refuses them) answer what the async ones answer.
    assert.deepEqual(docs.listOwn(h.spaceId), await docs.findOwn(h.spaceId));
    assert.deepEqual(docs.listOwn(h.spaceId, { fuente: 'otra-fuente' }), []);
    assert.deepEqual(docs.get(h.spaceId, 'ejemplo.com › precios'), await docs.find(h.spaceId, 'ejemplo.com › precios'));
  }
  assert.equal((await docs.find(h.spaceId, 'ejemplo.com › precios'))?.origen?.url, ORIGIN.url);
  assert.equal(await docs.find(h.spaceId, 'nadie.md'), null);

  const hits = await docs.search(h.spaceId, 'precio del plan Básico', { limite: 5 });
  assert.equal(hits[0]?.documento, 'ejemplo.com › precios');
  assert.equal(hits[0]?.posicion, 1);
  assert.equal(hits[0]?.origen?.url, ORIGIN.url);
  assert.match(hits[0]!.texto, /10 euros/);
  const onlyOther = await docs.search(h.spaceId, 'precio horario', { documentos: ['ajeno.md'] });
  assert.deepEqual([...new Set(onlyOther.map((x) => x.documento))], ['ajeno.md']);
  // Narrowed by labels (here the source's own tag), as `POST /rag/{espacio}/buscar` narrows.
  const bySource = await docs.search(h.spaceId, 'precio horario', { etiquetas: ['fuente:x'] });
  assert.deepEqual([...new Set(bySource.map((x) => x.documento))], ['ajeno.md']);
  assert.deepEqual(await docs.search(h.spaceId, 'precio horario', { etiquetas: ['fuente:nadie'] }), []);

  await assert.rejects(
    docs.put(h.spaceId, { nombre: 'a/b', contenido: 'x', tipo: 'text/plain' }),
    (e: any) => e.status === 422,
  );
  await assert.rejects(
    docs.put(h.spaceId, { nombre: 'vacio.txt', contenido: '', tipo: 'text/plain' }),
    (e: any) => e.status === 422,
  );

  // An upload with the same name replaces the document: it is no longer what the plugin brought.
  const upload = await h.client.post(`/rag/${h.spaceId}/load_documents`, {
    body: filesForm({ 'ejemplo.com › precios': 'Subido a mano.' }),
  });
  assert.equal(upload.status, 202, upload.text);
  assert.deepEqual(upload.body.documentos[0].etiquetas, [], 'nor tagged with its source');
  await waitIndexed(h.client, h.spaceId);
  assert.equal((await docs.find(h.spaceId, 'ejemplo.com › precios'))?.origen, null);
  assert.deepEqual(await docs.findOwn(h.spaceId), []);

  assert.equal(await docs.remove(h.spaceId, 'ajeno.md'), true);
  assert.equal(await docs.remove(h.spaceId, 'ajeno.md'), false);
  assert.equal(await docs.find(h.spaceId, 'ajeno.md'), null);
  assert.equal(await theirs.docs!.find(h.spaceId, 'ajeno.md'), null);
});

test("a refund gives back the plugin's own charge once, and nothing for another plugin's request", async (t) => {
  const mine: { refunds?: CreditRefunds; lastRequest?: string } = {};
  const theirs: { refunds?: CreditRefunds; lastRequest?: string } = {};
  const h = await startTestHost(t, {
    plugins: [libraryPlugin('biblioteca', mine), libraryPlugin('otra', theirs)],
    credits: 100,
  });
  const paid = await h.client.post(`/mod/biblioteca/${h.spaceId}/pagar`);
  assert.equal(paid.status, 200, paid.text);
  const saldo = async () => (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.saldo;
  assert.equal(await saldo(), 97);
  assert.equal(await theirs.refunds!.refund(h.spaceId, mine.lastRequest!), 0, 'another plugin cannot refund it');
  assert.equal(await mine.refunds!.refund(h.spaceId, mine.lastRequest!), 3);
  assert.equal(await mine.refunds!.refund(h.spaceId, mine.lastRequest!), 0, 'only once');
  assert.equal(await mine.refunds!.refund(h.spaceId, 'no-existe'), 0);
  assert.equal(await saldo(), 100);
  const movements = (await h.client.get(`/cuentas/${h.accountId}/bolsa`)).body.movimientos;
  assert.equal(movements[0].motivo, 'reembolso');
});

test('a search limited to some documents finds their passages even when many others rank higher', async (t) => {
  const mine: { docs?: DocumentsService } = {};
  const h = await startTestHost(t, { plugins: [libraryPlugin('biblioteca', mine)] });
  const docs = mine.docs!;
  for (let i = 0; i < 60; i++) {
    await docs.put(h.spaceId, {
      nombre: `ruido-${i}.md`,
      contenido: `# Tarifas ${i}\n\nLa tarifa del plan ${i} cuesta ${i} euros al mes y la tarifa anual cuesta ${i * 10} euros.`,
      tipo: 'text/markdown',
    });
  }
  await docs.put(h.spaceId, {
    nombre: 'objetivo.md',
    contenido: '# Condiciones\n\nEl plan objetivo tiene una tarifa distinta que se revisa cada año.',
    tipo: 'text/markdown',
  });
  await docs.idle(h.spaceId, { timeoutMs: 60_000 });
  const all = await docs.search(h.spaceId, 'tarifa del plan euros', { limite: 8 });
  assert.ok(
    all.every((x) => x.documento !== 'objetivo.md'),
    'unfiltered, the target is not among the first 8 (what a limit of 1 fetches at first)',
  );
  const only = await docs.search(h.spaceId, 'tarifa del plan euros', { limite: 1, documentos: ['objetivo.md'] });
  assert.deepEqual(
    only.map((x) => x.documento),
    ['objetivo.md'],
  );
});

test('putMany stores a batch in order; one past the storage quota, or holding a refused input, stores nothing', async (t) => {
  const mine: { docs?: DocumentsService } = {};
  const h = await startTestHost(t, {
    plugins: [libraryPlugin('biblioteca', mine)],
    env: { CEREBRO_QUOTA_BYTES: '100', CEREBRO_QUOTA_DOCUMENTS: '3' },
  });
  const docs = mine.docs!;
  const page = (nombre: string, contenido: string) => ({
    nombre,
    contenido,
    tipo: 'text/plain',
    origen: { ...ORIGIN, url: `https://ejemplo.com/${nombre}` },
  });
  const stored = async () =>
    ((await h.client.get(`/rag/${h.spaceId}/documents`)).body.documentos as any[])
      .map((d) => `${d.nombre}:${d.bytes}`)
      .sort();

  assert.deepEqual(await docs.putMany(h.spaceId, []), []);
  const first = await docs.putMany(h.spaceId, [page('a.txt', 'a'.repeat(30)), page('b.txt', 'b'.repeat(30))]);
  assert.deepEqual(
    first.map((d) => [d.nombre, d.version, d.bytes, d.estado, d.origen?.modulo, d.origen?.url]),
    [
      ['a.txt', 1, 30, 'en_cola', 'biblioteca', 'https://ejemplo.com/a.txt'],
      ['b.txt', 1, 30, 'en_cola', 'biblioteca', 'https://ejemplo.com/b.txt'],
    ],
  );
  // The origin answered is the one recorded, as `find` reads it back.
  assert.deepEqual(first[0]!.origen, (await docs.find(h.spaceId, 'a.txt'))?.origen);
  assert.deepEqual(await stored(), ['a.txt:30', 'b.txt:30']);

  // 60 held + 30 new + 20 more for b.txt > 100: the whole batch is refused, although its first document would fit.
  await assert.rejects(
    docs.putMany(h.spaceId, [page('c.txt', 'c'.repeat(30)), page('b.txt', 'b'.repeat(50))]),
    (e: any) => e.status === 413 && e.code === 'storage_quota_bytes',
  );
  // 2 documents + 2 new > 3.
  await assert.rejects(
    docs.putMany(h.spaceId, [page('c.txt', 'c'), page('d.txt', 'd')]),
    (e: any) => e.status === 422 && e.code === 'storage_quota_documents',
  );
  // An input the API would refuse, an empty one, a name given twice, too many: refused before anything is stored.
  const refusedAt = async (inputs: ReturnType<typeof page>[], loc: (string | number)[]) =>
    assert.rejects(
      docs.putMany(h.spaceId, inputs),
      (e: any) =>
        e.status === 422 && e.code === 'validation_failed' && assert.deepEqual(e.detail[0].loc, loc) === undefined,
    );
  await refusedAt([page('c.txt', 'c'), page('x/y', 'x')], ['body', 'documentos', 1, 'nombre']);
  await refusedAt([page('c.txt', 'c'), page('vacio.txt', '')], ['body', 'documentos', 1, 'contenido']);
  await refusedAt([page('c.txt', 'c'), page('c.txt', 'otra')], ['body', 'documentos', 1, 'nombre']);
  await refusedAt(
    Array.from({ length: PUT_MANY_MAX + 1 }, (_, i) => page(`n${i}.txt`, 'n')),
    ['body', 'documentos'],
  );
  assert.deepEqual(await stored(), ['a.txt:30', 'b.txt:30'], 'nothing of a refused batch is stored');

  // A replacement counts as its difference: 60 - 20 + 50 = 90 bytes and 3 documents fit.
  const second = await docs.putMany(h.spaceId, [page('a.txt', 'a'.repeat(10)), page('c.txt', 'c'.repeat(50))]);
  assert.deepEqual(
    second.map((d) => [d.nombre, d.version, d.id === first[0]!.id]),
    [
      ['a.txt', 2, true],
      ['c.txt', 1, false],
    ],
  );
  assert.deepEqual(await stored(), ['a.txt:10', 'b.txt:30', 'c.txt:50']);
  await docs.idle(h.spaceId, { timeoutMs: 20_000 });
  const listed = (await h.client.get(`/rag/${h.spaceId}/documents`)).body.documentos as any[];
  assert.deepEqual(
    listed.map((d) => [d.nombre, d.estado, d.etiquetas]),
    [
      ['a.txt', 'listo', ['fuente:f1']],
      ['b.txt', 'listo', ['fuente:f1']],
      ['c.txt', 'listo', ['fuente:f1']],
    ],
  );
});

test("a module's small web page is kept in the database: no file, indexed from its bytes, downloaded, replaced and removed", async (t) => {
  const mine: { docs?: DocumentsService } = {};
  const h = await startTestHost(t, { plugins: [libraryPlugin('biblioteca', mine)] });
  const docs = mine.docs!;
  const files = async () =>
    (await readdir(join(h.dataDir, 'documentos'), { recursive: true, withFileTypes: true }).catch(() => [])).filter(
      (e) => e.isFile(),
    ).length;
  const download = async (name: string) => {
    const res = await fetch(`${h.url}/api/rag/${h.spaceId}/documents/${encodeURIComponent(name)}`, {
      headers: { authorization: `Bearer ${h.writeKey}` },
    });
    return { status: res.status, body: await res.text() };
  };
  const small = '<h1>Horario</h1><p>La tienda abre de 9 a 14 horas los sábados.</p>';
  const large = `<h1>Archivo</h1>${'<p>Un párrafo largo de relleno para pasar del límite.</p>'.repeat(1300)}`;
  await docs.putMany(h.spaceId, [
    { nombre: 'horario.html', contenido: small, tipo: 'text/html', origen: ORIGIN },
    { nombre: 'notas.txt', contenido: 'Notas en texto plano, leídas por trozos.', tipo: 'text/plain' },
    { nombre: 'grande.html', contenido: large, tipo: 'text/html' },
  ]);
  assert.equal(await files(), 2, 'plain text (streamed) and a page past 64 kB are files; the small page is not');
  await docs.idle(h.spaceId, { timeoutMs: 20_000 });
  assert.deepEqual(
    ((await h.client.get(`/rag/${h.spaceId}/documents`)).body.documentos as { nombre: string; estado: string }[])
      .map((d) => [d.nombre, d.estado])
      .sort(),
    [
      ['grande.html', 'listo'],
      ['horario.html', 'listo'],
      ['notas.txt', 'listo'],
    ],
  );
  assert.equal((await docs.search(h.spaceId, 'sábados horario tienda'))[0]?.documento, 'horario.html');
  assert.deepEqual(await download('horario.html'), { status: 200, body: small });

  await docs.put(h.spaceId, {
    nombre: 'horario.html',
    contenido: '<p>Ahora abre también los domingos.</p>',
    tipo: 'text/html',
  });
  await docs.idle(h.spaceId, { timeoutMs: 20_000 });
  assert.deepEqual(await download('horario.html'), { status: 200, body: '<p>Ahora abre también los domingos.</p>' });
  assert.equal((await docs.search(h.spaceId, 'domingos'))[0]?.documento, 'horario.html');
  assert.equal(await docs.remove(h.spaceId, 'horario.html'), true);
  assert.equal((await download('horario.html')).status, 404);
  assert.equal(await files(), 2);
});
