import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { PreparePool } from '../extract/pool.js';
import { createPreparePool } from '../extract/pool.js';
import { makePdf, migratedDb, tempDir, type TempDir } from '../testing/fixtures.js';
import { sqlitePassageIndex } from '../testing/seed.js';
import { IndexingRunner, PREPARE_BATCH_MAX } from './indexing-runner.js';
import { PassageIndexWriter } from './passage-writer.js';
import { sqliteEngineStorage } from '../../storage/sqlite/engine-storage.js';
import { ORIGINALS_UNAVAILABLE, storageFailureOf } from '../../storage/storage-failure.js';
import type { DocumentStatus } from './types.js';

let dir: TempDir;
let pool: PreparePool;
before(async () => {
  dir = await tempDir();
  pool = createPreparePool({ threads: 1 });
});
after(async () => {
  await pool.close();
  await dir.cleanup();
});

/** A pool whose tasks never finish on their own: they only end when aborted, like a parser stuck on a file. */
function stuckPool(): PreparePool & { started: number } {
  const p = {
    started: 0,
    prepare(_task: unknown, signal?: AbortSignal) {
      p.started++;
      return new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
    },
    close: async () => {},
  };
  return p as PreparePool & { started: number };
}

/** The runner's repositories over a test database, and the passage writer over its index. */
const storage = (db: Database.Database, index = sqlitePassageIndex(db)) => {
  const { documents, leases } = sqliteEngineStorage(db);
  return { documents, leases, passages: new PassageIndexWriter(index.repository) };
};

const upload = async (name: string, data: string | Uint8Array) => {
  const path = await dir.file(name, data);
  return { name, path, bytes: typeof data === 'string' ? Buffer.byteLength(data) : data.length };
};

test('documents go queued → processing → ready, and failures carry a code and a Spanish reason', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const seen: string[] = [];
  const changedSpaces: string[] = [];
  const runner = new IndexingRunner({
    ...storage(db, index),
    pool,
    onStateChanged: (d) => seen.push(`${d.name}:${d.state}`),
    onContentChanged: (s) => changedSpaces.push(s),
  });
  await runner.start();
  const a = await runner.submit('s1', await upload('guia.md', '# Guía\n\nEl proxy se configura en apt.conf.\n'));
  assert.equal(a.state, 'queued');
  assert.equal(a.version, 1);
  await runner.submit(
    's1',
    await upload('manual.pdf', makePdf([['Primera página del manual.'], ['La impresora usa el puerto 631.']])),
  );
  await runner.submit('s1', await upload('foto.gif', 'GIF89a'));
  await runner.submit('s1', await upload('vacio.txt', ''));
  const during = await runner.status('s1');
  assert.equal(during.state, 'indexing');
  assert.equal(during.ready, false);
  await runner.idle();

  const status = await runner.status('s1');
  assert.equal(status.state, 'ready');
  assert.equal(status.ready, true);
  assert.equal(status.total, 4);
  assert.equal(status.readyCount, 2);
  assert.equal(status.failed, 2);
  assert.equal(status.progress, 1);
  const byName = new Map(status.documents.map((d) => [d.name, d]));
  const pdf = byName.get('manual.pdf')!;
  assert.equal(pdf.state, 'ready');
  assert.equal(pdf.pages, 2);
  assert.equal(pdf.progress, 1);
  assert.ok(pdf.passages >= 1);
  assert.equal(byName.get('foto.gif')?.errorCode, 'no_soportado');
  assert.match(byName.get('foto.gif')!.reason!, /Formato no soportado/);
  assert.equal(byName.get('vacio.txt')?.errorCode, 'vacio');
  assert.ok(seen.includes('guia.md:processing') && seen.includes('guia.md:ready'));
  assert.ok(changedSpaces.includes('s1'));

  assert.equal((await index.search('s1', 'puerto impresora', 3))[0]?.page, 2);
  assert.equal((await runner.status('s2')).state, 'empty');
  await runner.stop();
});

test('the same file name replaces the document: same id, next version, only the new passages', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const runner = new IndexingRunner({ ...storage(db, index), pool });
  await runner.start();
  const first = await runner.submit('s', await upload('notas.txt', 'El horario es de mañana.'));
  await runner.idle();
  assert.equal((await index.search('s', 'horario mañana', 5)).length, 1);
  const path2 = join(dir.path, 'notas-v2.txt');
  await dir.file('notas-v2.txt', 'Ahora el almacén abre los sábados.');
  const second = await runner.submit('s', { name: 'notas.txt', path: path2, bytes: 10 });
  assert.equal(second.id, first.id);
  assert.equal(second.version, 2);
  assert.equal(second.state, 'queued');
  await runner.idle();
  assert.equal((await index.search('s', 'horario mañana', 5)).length, 0);
  assert.equal((await index.search('s', 'almacén sábados', 5)).length, 1);
  assert.equal((await runner.list('s', { limit: 10, offset: 0 })).total, 1);
  await runner.stop();
});

test('removing a document removes its passages, only in its space', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const runner = new IndexingRunner({ ...storage(db, index), pool });
  await runner.start();
  const file = await upload('comun.md', 'Las facturas se emiten el día uno.');
  const a = await runner.submit('a', file);
  await runner.submit('b', file);
  await runner.idle();
  assert.equal((await runner.remove('a', a.id))?.name, 'comun.md');
  assert.equal(await runner.document('a', a.id), null);
  assert.equal(await runner.remove('a', a.id), null);
  assert.equal((await index.search('a', 'facturas', 5)).length, 0);
  assert.equal((await index.search('b', 'facturas', 5)).length, 1);
  await runner.stop();
});

test('a job stuck past its deadline fails with a reason and the queue moves on', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const stuck = stuckPool();
  const runner = new IndexingRunner({ ...storage(db, index), pool: stuck }, { deadlineMs: 150 });
  await runner.start();
  const doc = await runner.submit('s', await upload('atascado.pdf', makePdf([['x']])));
  await runner.submit('s', await upload('siguiente.txt', 'texto'));
  await runner.idle();
  const failed = (await runner.document('s', doc.id))!;
  assert.equal(failed.state, 'failed');
  assert.equal(failed.errorCode, 'tiempo_agotado');
  assert.match(failed.reason!, /tiempo límite/);
  assert.equal(stuck.started, 2, 'the next document was taken after the stuck one failed');
  await runner.stop();
});

/** Leaves a document as a process that died mid-job leaves it: claimed ('processing'), attempts counted. */
function crashWhileProcessing(db: Database.Database, space: string, id: string, attempts: number): void {
  db.prepare(
    "UPDATE cerebro_documents SET state = 'processing', progress = 0.05, attempts = ? WHERE space = ? AND id = ?",
  ).run(attempts, space, id);
}

test('work interrupted by a crash is re-queued on start and completes; nothing uploaded is lost', async () => {
  const file = join(dir.path, 'resume.db');
  const db1 = migratedDb(file);
  const before = new IndexingRunner({ ...storage(db1), pool }); // never started: it only records uploads
  const doc = await before.submit(
    's',
    await upload('informe.md', '# Informe\n\nLas ventas crecieron un 12 % en marzo.\n'),
  );
  await before.submit('s', await upload('segundo.md', 'Segundo documento pendiente de indexar.'));
  crashWhileProcessing(db1, 's', doc.id, 1);
  db1.close();

  const db2 = new Database(file);
  const index = sqlitePassageIndex(db2);
  const runner = new IndexingRunner({ ...storage(db2, index), pool });
  assert.deepEqual(await runner.start(), { requeued: 1, failed: 0 });
  await runner.idle();
  const status = await runner.status('s');
  assert.deepEqual(status.documents.map((d: DocumentStatus) => `${d.name}:${d.state}`).sort(), [
    'informe.md:ready',
    'segundo.md:ready',
  ]);
  assert.equal((await runner.document('s', doc.id))?.attempts, 2);
  assert.match((await index.search('s', 'ventas marzo', 3))[0]!.text, /12 %/);
  await runner.stop();
  db2.close();
});

test('a document interrupted more times than allowed fails instead of looping', async () => {
  const db = migratedDb();
  const runner = new IndexingRunner({ ...storage(db), pool }, { maxAttempts: 2 });
  const doc = await runner.submit('s', await upload('veneno.md', 'Este archivo tumba el proceso.'));
  crashWhileProcessing(db, 's', doc.id, 2);
  assert.deepEqual(await runner.start(), { requeued: 0, failed: 1 });
  const failed = (await runner.document('s', doc.id))!;
  assert.equal(failed.state, 'failed');
  assert.equal(failed.errorCode, 'interrumpido');
  assert.match(failed.reason!, /interrumpió/);
  await runner.stop();
});

test('stop() re-queues running work so the next start resumes it', async () => {
  const db = migratedDb();
  const runner = new IndexingRunner({ ...storage(db), pool: stuckPool() });
  await runner.start();
  const doc = await runner.submit('s', await upload('largo.md', 'Contenido.'));
  assert.equal((await runner.document('s', doc.id))?.state, 'processing');
  await runner.stop();
  assert.equal((await runner.document('s', doc.id))?.state, 'queued');
});

test('removing a space removes all its documents and nothing else', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const runner = new IndexingRunner({ ...storage(db, index), pool });
  await runner.start();
  await runner.submit('a', await upload('uno.md', 'Documento uno sobre facturas.'));
  await runner.submit('a', await upload('dos.md', 'Documento dos sobre facturas.'));
  await runner.submit('b', await upload('tres.md', 'Documento tres sobre facturas.'));
  await runner.idle();
  assert.equal(await runner.removeSpace('a'), 2);
  assert.equal((await runner.status('a')).state, 'empty');
  assert.equal((await index.search('a', 'facturas', 5)).length, 0);
  assert.equal((await index.search('b', 'facturas', 5)).length, 1);
  await runner.stop();
});

const hiddenRows = (db: Database.Database) =>
  db.prepare('SELECT count(*) FROM cerebro_hidden_passages').pluck().get() as number;
const storedPassages = (db: Database.Database) =>
  db.prepare('SELECT count(*) FROM cerebro_passages').pluck().get() as number;

test('a large document is stored batch by batch, hidden, then swapped in whole: every passage in order', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const runner = new IndexingRunner({ ...storage(db, index), pool });
  await runner.start();
  // Enough paragraphs for several batches of passages.
  const paragraphs = Array.from(
    { length: 6000 },
    (_, i) => `Párrafo ${i}: el artículo número ${i} cuesta ${i * 3} euros en la tienda.`,
  );
  // Every batch is stored on its own; while the run is still adding them, what is stored is not searchable.
  const addHidden = index.repository.addHidden.bind(index.repository);
  const searchableBeforeEachBatch: number[] = [];
  index.repository.addHidden = async (run, batch) => {
    searchableBeforeEachBatch.push((await index.search('s', 'artículo tienda', 5)).length);
    return addHidden(run, batch);
  };
  const doc = await runner.submit('s', await upload('catalogo.txt', paragraphs.join('\n\n')));
  await runner.idle();
  assert.ok(searchableBeforeEachBatch.length >= 2, `several batches, got ${searchableBeforeEachBatch.length}`);
  assert.ok(
    searchableBeforeEachBatch.every((n) => n === 0),
    'nothing searchable before the swap',
  );
  const ready = (await runner.document('s', doc.id))!;
  assert.ok(ready.passages > 256, `expected several batches, got ${ready.passages} passages`);
  const ords = db
    .prepare('SELECT ord FROM cerebro_passages WHERE space = ? AND document_id = ? ORDER BY id')
    .pluck()
    .all('s', doc.id) as number[];
  assert.deepEqual(
    ords,
    ords.map((_, i) => i),
    'passage ids follow the document order',
  );
  assert.match((await index.search('s', 'artículo 4321', 3))[0]!.text, /4321/);
  assert.equal(hiddenRows(db), 0);
  await runner.stop();
});

test('the old version stays searchable until the new one is swapped in, then is purged; abandoned runs too', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const runner = new IndexingRunner({ ...storage(db, index), pool });
  await runner.start();
  const long = (word: string) =>
    Array.from({ length: 12000 }, (_, i) => `Línea ${i} de un informe largo sobre ${word}.`).join('\n\n');
  const v1 = await runner.submit('s', await upload('informe.txt', long('inventario')));
  await runner.idle();
  const v1Passages = (await runner.document('s', v1.id))!.passages;
  assert.ok(v1Passages > 100);

  const v2Path = join(dir.path, 'informe-v2.txt');
  await dir.file('informe-v2.txt', long('facturación'));
  await runner.submit('s', { name: 'informe.txt', path: v2Path, bytes: 10 });
  while ((await runner.document('s', v1.id))!.state !== 'ready') {
    // Until the swap, questions are answered from version 1 only.
    assert.ok((await index.search('s', 'inventario', 5)).length > 0);
    assert.equal((await index.search('s', 'facturación', 5)).length, 0);
    await new Promise((r) => setImmediate(r));
  }
  assert.equal((await index.search('s', 'inventario', 5)).length, 0);
  assert.ok((await index.search('s', 'facturación', 5)).length > 0);
  await runner.idle();
  assert.equal(hiddenRows(db), 0);
  assert.equal(storedPassages(db), (await runner.document('s', v1.id))!.passages, 'version 1 was purged');

  // A run replaced halfway, and a document that fails, leave nothing behind.
  const v3Path = join(dir.path, 'informe-v3.txt');
  await dir.file('informe-v3.txt', long('proveedores'));
  await runner.submit('s', { name: 'informe.txt', path: v3Path, bytes: 10 });
  for (let d = (await runner.document('s', v1.id))!; d.state === 'queued'; d = (await runner.document('s', v1.id))!)
    await new Promise((r) => setImmediate(r));
  const v4Path = join(dir.path, 'informe-v4.txt');
  await dir.file('informe-v4.txt', 'Versión corta del informe.');
  await runner.submit('s', { name: 'informe.txt', path: v4Path, bytes: 10 });
  await runner.submit('s', await upload('vacio.txt', ''));
  await runner.idle();
  assert.deepEqual((await runner.status('s')).documents.map((d) => `${d.name}:${d.state}:${d.version}`).sort(), [
    'informe.txt:ready:4',
    'vacio.txt:failed:1',
  ]);
  assert.equal((await index.search('s', 'proveedores', 5)).length, 0);
  assert.equal(hiddenRows(db), 0);
  assert.equal(storedPassages(db), 1);
  await runner.stop();
});

test('start-up abandons runs a crash interrupted and purges them', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  db.prepare(
    "INSERT INTO cerebro_documents (space, id, name, media_type, format, bytes, path, state, queued_at, updated_at, created_at) VALUES ('s', 'd', 'd.txt', 'text/plain', 'text', 1, '/nada', 'ready', '', '', '')",
  ).run();
  await index.repository.addHidden({ space: 's', id: 'd', runId: 7 }, [
    { ord: 0, text: 'resto de una ejecución', page: null, headings: [], terms: 'rest ejecu', headingTerms: '' },
  ]);
  assert.equal(hiddenRows(db), 1);
  const runner = new IndexingRunner({ ...storage(db, index), pool });
  await runner.start();
  await runner.idle();
  assert.equal(hiddenRows(db), 0);
  assert.equal(storedPassages(db), 0);
  await runner.stop();
});

test('removing a large document answers at once; its passages are purged afterwards and no reference dangles', async () => {
  const db = migratedDb();
  db.pragma('foreign_keys = ON');
  const index = sqlitePassageIndex(db);
  const runner = new IndexingRunner({ ...storage(db, index), pool });
  await runner.start();
  const text = Array.from({ length: 12000 }, (_, i) => `Entrada ${i} del registro de almacén.`).join('\n\n');
  const doc = await runner.submit('s', await upload('registro.txt', text));
  const other = await runner.submit('s', await upload('otro.txt', 'El registro de almacén de la otra sede.'));
  await runner.idle();
  assert.ok((await runner.document('s', doc.id))!.passages > 100);

  assert.equal((await runner.remove('s', doc.id))?.name, 'registro.txt');
  assert.equal(await runner.document('s', doc.id), null);
  assert.ok(
    (await index.search('s', 'entrada registro almacén', 10)).every((h) => h.documentId === other.id),
    'gone from searches at once',
  );
  assert.equal(db.pragma('foreign_keys', { simple: true }), 1, 'enforcement is back on');
  await runner.idle();
  assert.equal(db.prepare('SELECT count(*) FROM cerebro_passages WHERE document_id = ?').pluck().get(doc.id), 0);
  assert.equal(hiddenRows(db), 0);
  assert.deepEqual(db.pragma('foreign_key_check'), []);
  await runner.stop();
});

test('a processing document reports its stage and a progress that only moves forward', async () => {
  const db = migratedDb();
  const states: { state: string; stage: string | null; progress: number }[] = [];
  const runner = new IndexingRunner({
    ...storage(db),
    pool,
    onStateChanged: (d) => states.push({ state: d.state, stage: d.stage, progress: d.progress }),
  });
  await runner.start();
  const paragraphs = Array.from(
    { length: 12000 },
    (_, i) => `Párrafo ${i} sobre la configuración de la red número ${i * 7} del servidor principal.`,
  );
  await runner.submit('s1', await upload('largo.txt', paragraphs.join('\n\n')));
  await runner.idle();
  const stages = states.filter((s) => s.state === 'processing').map((s) => s.stage);
  assert.equal(stages[0], 'extrayendo');
  assert.ok(stages.filter((s) => s === 'analizando').length >= 3, JSON.stringify(stages));
  assert.equal(stages.at(-1), 'guardando');
  assert.deepEqual([...new Set(stages)], ['extrayendo', 'analizando', 'guardando']);
  const progress = states.map((s) => s.progress);
  assert.deepEqual(
    progress,
    [...progress].sort((a, b) => a - b),
    'progress never goes backwards',
  );
  assert.ok(
    progress.some((p) => p > 0.3 && p < 0.6),
    'an intermediate figure is reported while analysing',
  );
  assert.equal(states.at(-1)?.state, 'ready');
  assert.equal(states.at(-1)?.progress, 1);
});

// A database that cannot grow (SQLite's max_page_count gives the genuine SQLITE_FULL a full disk gives) while a
// document is being indexed: that document fails with `sin_espacio`, the error is reported with its errno, nothing
// escapes as an unhandled rejection, and the queue goes on once there is room again.
const fullDiskText = (n: number) =>
  Array.from({ length: 3000 }, (_, i) => `Párrafo ${i} del texto ${n} con la palabra${i * 13 + n}.\n\n`).join('');

test('SQLITE_FULL while indexing fails that document with a reason and the runner keeps working', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const errors: { errno: string | undefined; stage: string; id?: string }[] = [];
  let released = 0;
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);
  process.on('unhandledRejection', onUnhandled);
  const runner = new IndexingRunner({
    ...storage(db, index),
    pool,
    onError: (err, where) =>
      errors.push({ errno: storageFailureOf(err)?.errno, stage: where.stage, ...(where.id ? { id: where.id } : {}) }),
    // What the host's reserve does: a little room comes back so the failure itself can be written.
    onDiskFull: () => {
      released++;
      db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true })) + 64}`);
    },
  });
  const big = await dir.file('grande.txt', fullDiskText(1));
  const doc = await runner.submit('s', { name: 'grande.txt', path: big, bytes: Buffer.byteLength(fullDiskText(1)) });
  db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true })) + 1}`);
  await runner.start();
  await runner.idle();

  const failed = (await runner.document('s', doc.id))!;
  assert.equal(failed.state, 'failed');
  assert.equal(failed.errorCode, 'sin_espacio');
  assert.match(failed.reason!, /disco del servidor se llenó/);
  assert.equal(released, 1);
  assert.deepEqual(errors[0], { errno: 'SQLITE_FULL', stage: 'indexación', id: doc.id });

  db.pragma('max_page_count = 1073741823');
  const small = await dir.file('pequeno.txt', 'Un texto corto que ya cabe.');
  const next = await runner.submit('s', { name: 'pequeno.txt', path: small, bytes: 27 });
  await runner.idle();
  assert.equal((await runner.document('s', next.id))!.state, 'ready');
  await runner.stop();
  process.off('unhandledRejection', onUnhandled);
  assert.deepEqual(unhandled, []);
  db.close();
});

test("spaces take turns: a backlog in one space delays another space's document by at most one job, also after a restart", async () => {
  const file = join(dir.path, 'fair.db');
  const db = migratedDb(file);
  const index = sqlitePassageIndex(db);
  const started: string[] = [];
  const runner = new IndexingRunner({
    ...storage(db, index),
    pool,
    onStateChanged: (d) => {
      if (d.state === 'processing' && d.stage === 'extrayendo') started.push(`${d.space}/${d.name}`);
    },
  });
  await runner.start();
  // Past PREPARED_WHOLE_MAX_BYTES: each its own job (small documents go in batches, the next test).
  const long = 'Un párrafo de relleno que hace el documento más largo que los pequeños. '.repeat(250);
  const backlog = await Promise.all(
    [0, 1, 2, 3, 4, 5].map((i) => upload(`a${i}.txt`, `Documento ${i} del espacio a.\n\n${long}`)),
  );
  const others = [
    await upload('b0.txt', 'El único documento del espacio b.'),
    await upload('c0.txt', 'El único documento del espacio c.'),
  ];
  for (const f of backlog) await runner.submit('a', f);
  await runner.submit('b', others[0]!);
  await runner.submit('c', others[1]!);
  await runner.idle();
  // a0 was already running when b and c queued; after it, b and c each get a turn before a's backlog goes on.
  assert.deepEqual(started.slice(0, 3), ['a/a0.txt', 'b/b0.txt', 'c/c0.txt']);
  assert.equal(started.length, 8);
  await runner.stop();

  // The rotation lives in the database: after a restart the space served last (a) waits for the others, even for a
  // document queued after its own.
  const stuck = stuckPool();
  const restarted = new IndexingRunner({
    ...storage(db, index),
    pool: stuck,
    onStateChanged: (d) => {
      if (d.state === 'processing') started.push(`${d.space}/${d.name}`);
    },
  });
  started.length = 0;
  const late = [await upload('a9.txt', 'Otro del espacio a.'), await upload('c1.txt', 'Otro del espacio c.')];
  await restarted.submit('a', late[0]!);
  await restarted.submit('c', late[1]!);
  await restarted.start();
  assert.deepEqual(started, ['c/c1.txt']);
  await restarted.stop();
  await new Promise((resolve) => setTimeout(resolve, 50)); // the aborted job settles before the database closes
  db.close();
});

test('a job leased to another live process is never taken back before its lease runs out; after it, once', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  // Owners named by a live pid that is not this process (the test runner's parent): their process is alive.
  const holder = new IndexingRunner(
    { ...storage(db, index), pool: stuckPool() },
    { owner: `${process.ppid}-a`, leaseMs: 60_000 },
  );
  await holder.start();
  const doc = await holder.submit('s', await upload('largo.md', '# Largo\n\nEl inventario cierra en junio.'));
  const leased = db.prepare('SELECT state, lease_owner, attempts FROM cerebro_documents WHERE id = ?');
  assert.deepEqual(leased.get(doc.id), { state: 'processing', lease_owner: `${process.ppid}-a`, attempts: 1 });

  const other = new IndexingRunner({ ...storage(db, index), pool }, { owner: `${process.ppid}-b`, leaseMs: 60_000 });
  assert.deepEqual(await other.start(), { requeued: 0, failed: 0 }, 'a live lease stays its owner’s');
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(leased.get(doc.id), { state: 'processing', lease_owner: `${process.ppid}-a`, attempts: 1 });
  await other.stop();

  // Two minutes later the holder has not renewed (its process hung): the lease ran out, the job is taken back once.
  const later = new IndexingRunner(
    { ...storage(db, index), pool, now: () => new Date(Date.now() + 120_000) },
    { owner: `${process.ppid}-c`, leaseMs: 60_000 },
  );
  assert.deepEqual(await later.start(), { requeued: 1, failed: 0 });
  await later.idle();
  assert.deepEqual(leased.get(doc.id), { state: 'ready', lease_owner: null, attempts: 2 });
  // The first holder, should it wake up, no longer owns the job: its stop writes nothing over the result.
  await holder.stop();
  assert.equal((await later.document('s', doc.id))?.state, 'ready');
  assert.match((await index.search('s', 'inventario junio', 3))[0]!.text, /junio/);
  await later.stop();
});

test('a document another process replaces while this runner indexes it: the worker stops its job and takes the new version', async () => {
  const file = join(dir.path, 'cancel.db');
  const db = migratedDb(file);
  const otherDb = new Database(file);
  const signals: AbortSignal[] = [];
  const stuck = stuckPool();
  const recording: PreparePool = {
    prepare: (task, signal, onPassages) => {
      if (signal) signals.push(signal);
      return stuck.prepare(task, signal, onPassages);
    },
    close: stuck.close,
  };
  // The worker learns of the replacement when it renews its leases (every third of one). A lease of 1.5 s keeps
  // that quick and outlives the event-loop stalls of a loaded machine: with 30 ms, a stall let the lease run out
  // and the worker take its own job back, a claim more than the replacement explains.
  const worker = new IndexingRunner(
    { ...storage(db), pool: recording },
    { owner: `${process.ppid}-worker`, pollMs: 10, leaseMs: 1_500 },
  );
  await worker.start();
  const doc = await worker.submit('s', await upload('informe.md', 'Primera versión.'));
  for (const until = Date.now() + 5000; signals.length === 0 && Date.now() < until; )
    await new Promise((r) => setTimeout(r, 5));
  assert.equal(signals.length, 1);
  // Another process (its own connection, never started: an api process) uploads a new version of the same name.
  const api = new IndexingRunner({ ...storage(otherDb), pool }, { owner: `${process.ppid}-api` });
  const replaced = await api.submit('s', { name: 'informe.md', path: await dir.file('v2.md', 'Segunda.'), bytes: 8 });
  assert.equal(replaced.version, 2);
  const deadline = Date.now() + 10_000;
  while (signals.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  assert.equal(signals[0]!.aborted, true, 'the first version’s job was stopped');
  assert.equal(signals.length, 2, 'the new version was claimed');
  const now = (await worker.document('s', doc.id))!;
  assert.deepEqual([now.state, now.version, now.leaseOwner], ['processing', 2, `${process.ppid}-worker`]);
  await worker.stop();
  await new Promise((resolve) => setTimeout(resolve, 20));
  otherDb.close();
  db.close();
});

test('an originals store that does not answer is waited for: the document is indexed once it is back, or fails with no_disponible', async () => {
  const db = migratedDb();
  const errors: { code: unknown; stage: string }[] = [];
  const unavailable = () => Object.assign(new Error('el almacén no responde'), { code: ORIGINALS_UNAVAILABLE });
  let outageReads = 2;
  let reads = 0;
  const runner = new IndexingRunner(
    {
      ...storage(db),
      pool,
      openOriginal: async (stored) => {
        reads++;
        if (stored.includes('perdido') || outageReads-- > 0) throw unavailable();
        return { path: stored, release: async () => undefined };
      },
      onError: (err, where) => errors.push({ code: storageFailureOf(err)?.errno, stage: where.stage }),
    },
    { originalRetryDelaysMs: [20, 20, 20] },
  );
  await runner.start();
  const back = await runner.submit('s', await upload('vuelve.md', '# Caldera\n\nPurgar los radiadores en otoño.\n'));
  await runner.idle();
  assert.equal((await runner.document('s', back.id))!.state, 'ready', 'indexed after two reads the store missed');
  assert.equal(reads, 3);
  assert.deepEqual(errors, [
    { code: ORIGINALS_UNAVAILABLE, stage: 'original' },
    { code: ORIGINALS_UNAVAILABLE, stage: 'original' },
  ]);

  const lost = await runner.submit('s', await upload('perdido.md', '# Nunca\n\nEl almacén no vuelve.\n'));
  await runner.idle();
  const failed = (await runner.document('s', lost.id))!;
  assert.equal(failed.state, 'failed');
  assert.equal(failed.errorCode, 'no_disponible');
  assert.match(failed.reason!, /almacén de originales no respondió/);
  assert.equal(reads, 3 + 4, 'the first read and one after each of the three pauses');
  await runner.stop();
  db.close();
});

test('documents indexed one after another share a purge; once the queue is empty every hidden passage is gone', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const { documents, leases, passages } = storage(db, index);
  let purges = 0;
  const counted = {
    ...leases,
    acquire: (...args: Parameters<typeof leases.acquire>) => {
      if (args[0] === 'purga-pasajes') purges++;
      return leases.acquire(...args);
    },
  } as typeof leases;
  const runner = new IndexingRunner({ documents, leases: counted, passages, pool });
  await runner.start();
  // Version 1 of each, then version 2: each swap hides the version before, for the purge. The files are written
  // first, so that the submissions follow one another faster than indexing empties the queue (a purge may run at
  // once when it is empty): on a loaded machine, writing each file between submissions let it empty now and then.
  const files = [];
  for (const version of [1, 2])
    for (let i = 0; i < 12; i++) files.push(await upload(`pagina-${i}.txt`, `Versión ${version} de la página ${i}.`));
  for (const file of files) await runner.submit('s', file);
  await runner.idle();
  assert.equal((await runner.status('s')).documents.filter((d) => d.state === 'ready' && d.version === 2).length, 12);
  assert.equal(hiddenRows(db), 0, 'the replaced versions were purged');
  assert.equal(storedPassages(db), 12);
  assert.ok(purges < 6, `${purges} purges for 12 documents swapped while the queue was busy`);
  await runner.stop();
});

test('a small text document goes from extrayendo to ready without intermediate progress writes; a large one reports them', async () => {
  const db = migratedDb();
  const states: string[] = [];
  const runner = new IndexingRunner({
    ...storage(db),
    pool,
    onStateChanged: (d) => states.push(`${d.name}:${d.state}:${d.stage ?? ''}`),
  });
  await runner.start();
  await runner.submit('s', await upload('pagina.html', '<h1>Precios</h1><p>El plan básico cuesta 10 euros.</p>'));
  await runner.idle();
  assert.deepEqual(states, ['pagina.html:queued:', 'pagina.html:processing:extrayendo', 'pagina.html:ready:']);
  const big = `${'Una línea de un texto que pasa del tamaño de los documentos callados.\n\n'.repeat(1200)}`;
  await runner.submit('s', await upload('grande.txt', big));
  await runner.idle();
  assert.ok(states.includes('grande.txt:processing:guardando'), JSON.stringify(states));
  assert.equal((await runner.status('s')).readyCount, 2);
  await runner.stop();
});

test('a small page is prepared whole and stored with its ready state (no run, no channel); a 20 kB one streams its run', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const streamed: string[] = [];
  const recording: PreparePool = {
    prepare: (task, signal, onPassages) => {
      if (onPassages) streamed.push(task.name);
      return pool.prepare(task, signal, onPassages);
    },
    close: async () => {},
  };
  const runs: number[] = [];
  const hidden = db.prepare('SELECT count(*) FROM cerebro_hidden_passages WHERE run IS NOT NULL').pluck();
  const base = storage(db, index);
  // Counts the hidden rows of a run each time a batch is stored: a page prepared whole never has any.
  const passages = Object.assign(Object.create(base.passages) as PassageIndexWriter, {
    addHidden: async (
      run: Parameters<PassageIndexWriter['addHidden']>[0],
      batch: Parameters<PassageIndexWriter['addHidden']>[1],
    ) => {
      await base.passages.addHidden(run, batch);
      runs.push(hidden.get() as number);
    },
  });
  const runner = new IndexingRunner({ ...base, passages, pool: recording });
  await runner.start();
  const page = await runner.submit(
    's',
    await upload('precios.html', '<h1>Precios</h1><p>El plan básico cuesta 10 euros.</p>'),
  );
  await runner.idle();
  const ready = (await runner.document('s', page.id))!;
  assert.deepEqual([ready.state, ready.passages], ['ready', 1]);
  assert.deepEqual([streamed, runs], [[], []], 'no passage channel, no hidden run');
  const visible = db
    .prepare(
      `SELECT p.text FROM cerebro_passages p WHERE p.space = 's'
        AND NOT EXISTS (SELECT 1 FROM cerebro_hidden_passages h WHERE h.id = p.id)`,
    )
    .pluck();
  assert.match(String(visible.all()), /10 euros/);

  // Replaced by another small version: the old passage is hidden for the purge, the new one searchable.
  await runner.submit('s', await upload('precios.html', '<h1>Precios</h1><p>Ahora cuesta 12 euros.</p>'));
  await runner.idle();
  assert.equal(visible.all().length, 1);
  assert.match(String(visible.all()), /12 euros/);

  const medium = `<h1>Medio</h1>${'<p>Un párrafo de relleno para pasar de dieciséis kilobytes.</p>'.repeat(300)}`;
  assert.ok(Buffer.byteLength(medium) > 16 * 1024 && Buffer.byteLength(medium) < 64 * 1024);
  await runner.submit('s', await upload('medio.html', medium));
  await runner.idle();
  assert.deepEqual(streamed, ['medio.html'], 'past 16 kB the passages stream');
  assert.ok(runs.length > 0 && runs[0]! > 0, 'stored as a hidden run, then swapped in');
  assert.equal((await runner.status('s')).readyCount, 2);
  await runner.stop();
});

test('small documents already queued are prepared together, up to PREPARE_BATCH_MAX, taken in the turns of their spaces', async () => {
  const db = migratedDb();
  const batches: string[][] = [];
  const recording: PreparePool = {
    prepare: (task, signal, onPassages) => pool.prepare(task, signal, onPassages),
    prepareMany: (tasks, signal) => {
      batches.push(tasks.map((t) => t.name));
      return pool.prepareMany!(tasks, signal);
    },
    close: async () => {},
  };
  const started: string[] = [];
  const runner = new IndexingRunner({
    ...storage(db),
    pool: recording,
    onStateChanged: (d) => {
      if (d.state === 'processing') started.push(`${d.space}/${d.name}`);
    },
  });
  // Queued before the runner starts: 12 small pages in a, one in b and c, and in a a broken one and a large one.
  for (let i = 0; i < 12; i++) await runner.submit('a', await upload(`a${i}.html`, `<p>Página ${i} de a.</p>`));
  await runner.submit('b', await upload('b0.html', '<p>La única de b.</p>'));
  await runner.submit('c', await upload('c0.md', '# C\n\nLa única de c.'));
  await runner.submit('a', await upload('vacia.html', '<p> </p>'));
  await runner.submit('a', await upload('grande.txt', 'Texto largo del espacio a. '.repeat(1000)));
  await runner.start();
  await runner.idle();
  // Turns as one at a time would take them: a, b, c, then a's backlog; a batch stops at most at 8.
  assert.deepEqual(started.slice(0, 4), ['a/a0.html', 'b/b0.html', 'c/c0.md', 'a/a1.html']);
  assert.deepEqual(batches[0], ['a0.html', 'b0.html', 'c0.md', 'a1.html', 'a2.html', 'a3.html', 'a4.html', 'a5.html']);
  assert.ok(batches.every((b) => b.length <= PREPARE_BATCH_MAX && !b.includes('grande.txt')));
  const status = await runner.status('a');
  assert.deepEqual([status.readyCount, status.failed], [13, 1], 'each of a batch ready or failed on its own');
  const empty = status.documents.find((d) => d.name === 'vacia.html')!;
  assert.equal(empty.errorCode, 'vacio');
  assert.deepEqual(
    (await runner.status('b')).documents.map((d) => [d.state, d.errorCode]),
    [['ready', null]],
  );
  assert.equal((await runner.status('c')).readyCount, 1);
  await runner.stop();
});

test('a batch prepared together is stored in one transaction; a storage error sends each of its documents alone', async () => {
  const db = migratedDb();
  const base = storage(db);
  const calls: string[] = [];
  let failNext = true;
  const documents = Object.create(base.documents) as typeof base.documents;
  documents.markReadyMany = (items, ...rest) => {
    calls.push(`many ${items.length}`);
    if (failNext) {
      failNext = false;
      return Promise.reject(new Error('SQLITE_FULL: database or disk is full'));
    }
    return base.documents.markReadyMany(items, ...rest);
  };
  documents.markReady = (job, ...rest) => {
    calls.push('one');
    return base.documents.markReady(job, ...rest);
  };
  const changed: string[] = [];
  const runner = new IndexingRunner({
    ...base,
    documents,
    pool,
    onContentChanged: (space) => changed.push(space),
  });
  for (let i = 0; i < 6; i++) await runner.submit('s', await upload(`p${i}.html`, `<p>Página ${i}.</p>`));
  await runner.start();
  await runner.idle();
  // The first batch (all six) failed to store: each then ran alone and was stored on its own.
  assert.deepEqual(calls, ['many 6', 'one', 'one', 'one', 'one', 'one', 'one']);
  assert.equal((await runner.status('s')).readyCount, 6);
  assert.equal(changed.length, 6);
  await runner.stop();
  // Queued together again (while no runner works), a batch is stored in one call, and each is told ready.
  calls.length = 0;
  changed.length = 0;
  for (let i = 0; i < 6; i++) await runner.submit('s', await upload(`q${i}.html`, `<p>Otra página ${i}.</p>`));
  const again = new IndexingRunner({ ...base, documents, pool, onContentChanged: (space) => changed.push(space) });
  await again.start();
  await again.idle();
  assert.deepEqual(calls, ['many 6']);
  assert.equal((await again.status('s')).readyCount, 12);
  assert.equal(changed.length, 6);
  await again.stop();
});

test('a batch stored ready stays ready when telling it fails: the error is reported and the rest is told', async () => {
  const db = migratedDb();
  const errors: string[] = [];
  const readyTold: string[] = [];
  const runner = new IndexingRunner({
    ...storage(db),
    pool,
    onStateChanged: (d) => {
      if (d.state !== 'ready') return;
      if (d.name === 'p1.html' && !errors.length) throw new Error('observador roto');
      readyTold.push(d.name);
    },
    onError: (err) => errors.push((err as Error).message),
  });
  for (let i = 0; i < 4; i++) await runner.submit('s', await upload(`p${i}.html`, `<p>Página ${i}.</p>`));
  await runner.start();
  await runner.idle();
  assert.deepEqual(errors, ['observador roto']);
  assert.deepEqual(readyTold.sort(), ['p0.html', 'p2.html', 'p3.html']);
  assert.equal((await runner.status('s')).readyCount, 4);
  await runner.stop();
});

test('a batch whose task fails or outlives the deadline: each document then runs alone, with its own deadline', async () => {
  const db = migratedDb();
  let manyCalls = 0;
  const stuckOnce: PreparePool = {
    prepare: (task, signal, onPassages) =>
      task.name === 'atascada.html'
        ? new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)))
        : pool.prepare(task, signal, onPassages),
    prepareMany: (_tasks, signal) => {
      manyCalls++;
      return new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
    },
    close: async () => {},
  };
  const runner = new IndexingRunner({ ...storage(db), pool: stuckOnce }, { deadlineMs: 300 });
  for (const name of ['uno.html', 'atascada.html', 'dos.html'])
    await runner.submit('s', await upload(name, `<p>Contenido de ${name}.</p>`));
  await runner.start();
  await runner.idle();
  const docs = (await runner.status('s')).documents;
  const state = (name: string) => docs.find((d) => d.name === name)?.state;
  assert.equal(manyCalls, 1);
  assert.deepEqual([state('uno.html'), state('atascada.html'), state('dos.html')], ['ready', 'failed', 'ready']);
  assert.equal(docs.find((d) => d.name === 'atascada.html')?.errorCode, 'tiempo_agotado');
  await runner.stop();
});
