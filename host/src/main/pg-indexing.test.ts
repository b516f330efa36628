// Indexing and answering on PostgreSQL, end to end (issue #25): the real indexing runner and engine over the
// repositories a host on PostgreSQL registers (registerPgAccessRepositories, registerPgContentRepositories), with no
// SQLite database given to the engine. A real document is uploaded, indexed, replaced, removed; a killed worker's
// job is taken back once; the answers are compared with the same document indexed on SQLite.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { CerebroEngine, type Embedder, passageTerms } from '../cerebro/index.js';
import { createPreparePool, type PreparePool } from '../cerebro/extract/pool.js';
import { migratedDb } from '../cerebro/testing/fixtures.js';
import type { Pool } from '../storage/postgres/pg-driver.js';
import { dropMigratedTemplate, migratedPgDatabase } from '../storage/postgres/testing/migrated-pg-database.js';
import { pgUnavailable } from '../storage/postgres/testing/pg-test-database.js';
import { pgEngineStorage } from './testing/pg-engine-storage.js';

/** The Debian Administrator's Handbook in Spanish (Debian package debian-handbook), as the benches use it. */
const HANDBOOK = '/usr/share/doc/debian-handbook/html/es-ES';
const APT = join(HANDBOOK, 'apt.html');
const CONFIGURATION = join(HANDBOOK, 'basic-configuration.html');

const skip =
  (await pgUnavailable()) ??
  (existsSync(APT) && existsSync(CONFIGURATION) ? false : `falta el paquete debian-handbook (${HANDBOOK})`);
after(dropMigratedTemplate);

const SPACE = 'manual';
const HANGING_WORKER = fileURLToPath(new URL('./testing/pg-hanging-worker.js', import.meta.url));
const QUESTIONS = [
  '¿Cómo se configura un proxy para APT?',
  '¿Qué contiene el archivo sources.list?',
  '¿Cómo se actualizan los paquetes instalados?',
];
const REPLACED_QUESTIONS = ['¿Cómo se configura la red?', '¿Dónde se define el nombre del equipo?'];

/** Owners named by a live pid that is not this process (the test runner's parent), as other live hosts. */
const owner = (name: string) => `${process.ppid}-${name}`;

/** What a search returns that both backends must agree on (passage ids are each database's own). */
const hits = async (engine: CerebroEngine, question: string) =>
  (await engine.search(SPACE, question, 10)).map((h) => [h.documentName, h.ord, h.text, h.bm25.toFixed(9)]);

const answer = async (engine: CerebroEngine, question: string) => {
  const a = await engine.ask({ space: SPACE, question });
  return [a.found, a.text, a.sources.map((s) => [s.document, s.excerpt, s.score.toFixed(9), s.cited])];
};

/** A small deterministic model for the test: a text's words counted into 16 buckets by hash, unit length. */
const bucketEmbedder: Embedder = {
  id: 'cubetas-prueba',
  dimensions: 16,
  async embed(texts) {
    return texts.map((text) => {
      const v = new Float32Array(16);
      for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
        let h = 0;
        for (const c of word) h = (h * 31 + c.codePointAt(0)!) % 16;
        v[h]! += 1;
      }
      const norm = Math.hypot(...v) || 1;
      return v.map((x) => x / norm);
    });
  },
};

async function until(what: string, done: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`no llegó a tiempo: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const count = async (pool: Pool, sql: string, args: unknown[] = []) =>
  Number((await pool.query<{ n: string }>(sql, args)).rows[0]!.n);

let prepare: PreparePool;
before(() => {
  prepare = createPreparePool({ threads: 1 });
});
after(() => prepare?.close());

describe('indexing on PostgreSQL, end to end', { skip }, () => {
  test('a document is indexed, replaced and removed on PostgreSQL, answering as on SQLite', async (t) => {
    const db = await migratedPgDatabase();
    const onPg = new CerebroEngine({
      storage: pgEngineStorage(db.pool),
      pool: prepare,
      indexing: { owner: owner('pg') },
    });
    const onSqlite = new CerebroEngine({ db: migratedDb(), pool: prepare, indexing: { owner: owner('sqlite') } });
    t.after(async () => {
      await Promise.all([onPg.stop(), onSqlite.stop()]);
      await db.close();
    });
    await onPg.start();
    await onSqlite.start();

    // Uploaded and indexed: `listo` (ready), with the same passages as on SQLite.
    const uploaded = await onPg.documents.submit(SPACE, { name: 'manual.html', path: APT, bytes: 51_414 });
    await onSqlite.documents.submit(SPACE, { name: 'manual.html', path: APT, bytes: 51_414 });
    await Promise.all([onPg.documents.idle(), onSqlite.documents.idle()]);
    const ready = (await onPg.documents.document(SPACE, uploaded.id))!;
    const onSqliteReady = (await onSqlite.documents.documentByName(SPACE, 'manual.html'))!;
    assert.deepEqual([ready.state, ready.version, ready.attempts, ready.lang], ['ready', 1, 1, 'es']);
    assert.ok(ready.passages > 20, `${ready.passages} pasajes`);
    assert.equal(ready.passages, onSqliteReady.passages);
    const status = await onPg.documents.status(SPACE);
    assert.deepEqual([status.state, status.readyCount, status.passages], ['ready', 1, ready.passages]);
    assert.equal((await onPg.documents.list(SPACE, { limit: 10, offset: 0 })).total, 1);
    const stored = () =>
      count(db.pool, 'SELECT count(*) AS n FROM cerebro_passages WHERE space = $1 AND document_id = $2', [
        SPACE,
        uploaded.id,
      ]);
    assert.equal(await stored(), ready.passages);

    // The engine answers from PostgreSQL's index: the same top passages, scores and answers as SQLite's.
    for (const question of QUESTIONS) {
      const found = await hits(onPg, question);
      assert.ok(found.length > 0, question);
      assert.deepEqual(found, await hits(onSqlite, question), question);
      assert.deepEqual(await answer(onPg, question), await answer(onSqlite, question), question);
    }
    assert.equal((await onPg.ask({ space: SPACE, question: QUESTIONS[0]! })).found, true);

    // Replaced by a file of the same name: version 2, the old passages hidden then purged, none twice.
    const replaced = await onPg.documents.submit(SPACE, { name: 'manual.html', path: CONFIGURATION, bytes: 28_276 });
    await onSqlite.documents.submit(SPACE, { name: 'manual.html', path: CONFIGURATION, bytes: 28_276 });
    assert.deepEqual([replaced.id, replaced.version], [uploaded.id, 2]);
    await Promise.all([onPg.documents.idle(), onSqlite.documents.idle()]);
    const second = (await onPg.documents.document(SPACE, uploaded.id))!;
    assert.deepEqual([second.state, second.version], ['ready', 2]);
    assert.equal(await stored(), second.passages, 'only the new version is stored');
    assert.equal(await count(db.pool, 'SELECT count(*) AS n FROM cerebro_hidden_passages'), 0, 'nothing left hidden');
    const texts = await count(
      db.pool,
      'SELECT count(DISTINCT (ord, text)) AS n FROM cerebro_passages WHERE space = $1 AND document_id = $2',
      [SPACE, uploaded.id],
    );
    assert.equal(texts, second.passages, 'no passage twice');
    assert.deepEqual(await hits(onPg, QUESTIONS[0]!), await hits(onSqlite, QUESTIONS[0]!));
    for (const question of REPLACED_QUESTIONS) {
      assert.ok((await hits(onPg, question)).length > 0, question);
      assert.deepEqual(await hits(onPg, question), await hits(onSqlite, question), question);
    }

    // Removed: the record, its passages and its index rows go; nothing is found any more.
    const removed = await onPg.documents.remove(SPACE, uploaded.id);
    assert.equal(removed?.id, uploaded.id);
    await onPg.documents.idle();
    assert.equal(await onPg.documents.document(SPACE, uploaded.id), null);
    assert.equal((await onPg.documents.status(SPACE)).state, 'empty');
    assert.equal(await stored(), 0);
    assert.equal(await count(db.pool, 'SELECT count(*) AS n FROM cerebro_fts_rows'), 0, 'no full-text row left');
    for (const question of [...QUESTIONS, ...REPLACED_QUESTIONS]) assert.deepEqual(await hits(onPg, question), []);
  });

  test('a killed worker’s job is taken back once its lease ran out, by one of two hosts, and indexed once', async (t) => {
    const db = await migratedPgDatabase();
    const storage = pgEngineStorage(db.pool);
    // What a worker killed mid-job leaves: the job processing under its lease (run out now), half its passages stored.
    const { document } = await storage.documents.submit(
      SPACE,
      { name: 'apt.html', mediaType: 'text/html', format: 'html', bytes: 51_414, sha256: null, path: APT },
      'doc-apt',
      new Date().toISOString(),
    );
    const dead = owner('muerto');
    const at = new Date().toISOString();
    const job = (await storage.documents.claimNext({ owner: dead, at, deadlineAt: at, leaseUntil: Date.now() - 1 }))!;
    assert.equal(job.id, document.id);
    const half = 'Un pasaje a medias que el trabajador muerto llegó a guardar.';
    await storage.passages.addHidden({ space: SPACE, id: job.id, runId: 77 }, [
      { ord: 0, text: half, page: null, headings: [], ...passageTerms(half, [], 'es') },
    ]);

    // Two hosts start at once, each with its own pool: one takes the job back, the other finds nothing to take.
    const hosts = [
      new CerebroEngine({ storage, pool: prepare, indexing: { owner: owner('a'), pollMs: 20 } }),
      new CerebroEngine({
        storage: pgEngineStorage(await db.connect()),
        pool: prepare,
        indexing: { owner: owner('b'), pollMs: 20 },
      }),
    ];
    t.after(async () => {
      await Promise.all(hosts.map((h) => h.stop()));
      await db.close();
    });
    const started = await Promise.all(hosts.map((h) => h.start()));
    assert.deepEqual(
      started.reduce((a, s) => ({ requeued: a.requeued + s.requeued, failed: a.failed + s.failed })),
      { requeued: 1, failed: 0 },
      'taken back once',
    );
    // The killed worker, should it come back, can no longer write its job.
    assert.equal(await storage.documents.progress(job, dead, 0.5, 'analizando', at), false);

    const done = async () => (await hosts[0]!.documents.document(SPACE, job.id))?.state === 'ready';
    await until('el documento listo', done);
    await until(
      'la purga de lo que dejó el trabajador muerto',
      async () => (await count(db.pool, 'SELECT count(*) AS n FROM cerebro_hidden_passages')) === 0,
    );
    const ready = (await hosts[1]!.documents.document(SPACE, job.id))!;
    assert.deepEqual([ready.state, ready.attempts, ready.leaseOwner], ['ready', 2, null], 'indexed once more, once');
    const stored = await count(
      db.pool,
      'SELECT count(*) AS n FROM cerebro_passages WHERE space = $1 AND document_id = $2',
      [SPACE, job.id],
    );
    assert.equal(stored, ready.passages, 'no duplicate passages');
    assert.equal(
      await count(db.pool, 'SELECT count(*) AS n FROM cerebro_passages WHERE text = $1', [half]),
      0,
      'the half-stored run was purged',
    );
    for (const host of hosts) assert.ok((await hits(host, QUESTIONS[0]!)).length > 0);
    assert.deepEqual(await hits(hosts[0]!, QUESTIONS[0]!), await hits(hosts[1]!, QUESTIONS[0]!));
  });

  test('with an embedding model, vectors live in PostgreSQL beside their passages and go with them', async (t) => {
    const db = await migratedPgDatabase();
    const engine = new CerebroEngine({
      storage: pgEngineStorage(db.pool),
      pool: prepare,
      embedder: bucketEmbedder,
      indexing: { owner: owner('vectores') },
    });
    t.after(async () => {
      await engine.stop();
      await db.close();
    });
    await engine.start();
    assert.equal(engine.hybrid, true);
    const vectors = () => count(db.pool, 'SELECT count(*) AS n FROM cerebro_vec_d16');
    const doc = await engine.documents.submit(SPACE, { name: 'manual.html', path: APT, bytes: 51_414 });
    await engine.documents.idle();
    const first = (await engine.documents.document(SPACE, doc.id))!;
    assert.equal(first.state, 'ready');
    assert.equal(await vectors(), first.passages, 'one vector per passage');
    assert.ok((await engine.search(SPACE, QUESTIONS[0]!, 10)).length > 0);

    await engine.documents.submit(SPACE, { name: 'manual.html', path: CONFIGURATION, bytes: 28_276 });
    await engine.documents.idle();
    const second = (await engine.documents.document(SPACE, doc.id))!;
    assert.deepEqual([second.state, second.version], ['ready', 2]);
    assert.equal(await vectors(), second.passages, "the old version's vectors were purged with its passages");
    assert.ok((await engine.search(SPACE, REPLACED_QUESTIONS[0]!, 10)).length > 0);

    await engine.documents.remove(SPACE, doc.id);
    await engine.documents.idle();
    assert.equal(await vectors(), 0, "a removed document's vectors go with it");
  });

  test('a worker killed with SIGKILL mid-job: its job is taken back once its lease ran out, and indexed once', async (t) => {
    const db = await migratedPgDatabase();
    const storage = pgEngineStorage(db.pool);
    const host = new CerebroEngine({ storage, pool: prepare, indexing: { owner: owner('vivo'), pollMs: 20 } });
    t.after(async () => {
      await host.stop();
      await db.close();
    });
    const { document } = await storage.documents.submit(
      SPACE,
      { name: 'apt.html', mediaType: 'text/html', format: 'html', bytes: 51_414, sha256: null, path: APT },
      'doc-apt',
      new Date().toISOString(),
    );
    // A live pid that is not the worker's: only the lease running out, not the pid, lets the job be taken back.
    const dead = owner('matado');
    const worker = spawn(process.execPath, [HANGING_WORKER, db.url, dead], { stdio: 'ignore' });
    const exited = once(worker, 'exit');
    const runRows = () => count(db.pool, 'SELECT count(*) AS n FROM cerebro_hidden_passages WHERE run IS NOT NULL');
    try {
      await until('el trabajador guarda sus pasajes', async () => (await runRows()) > 0);
    } finally {
      worker.kill('SIGKILL');
      await exited;
    }
    const left = (await storage.documents.get(SPACE, document.id))!;
    assert.deepEqual([left.state, left.leaseOwner, left.attempts], ['processing', dead, 1]);
    const halfRun = await runRows();

    await host.start();
    await until(
      'el documento listo',
      async () => (await host.documents.document(SPACE, document.id))?.state === 'ready',
    );
    await host.documents.idle();
    const ready = (await host.documents.document(SPACE, document.id))!;
    assert.deepEqual([ready.attempts, ready.leaseOwner], [2, null], 'claimed once more, by the live host');
    assert.equal(ready.passages, halfRun, 'the same document, indexed again in full');
    const stored = await count(
      db.pool,
      'SELECT count(*) AS n FROM cerebro_passages WHERE space = $1 AND document_id = $2',
      [SPACE, document.id],
    );
    assert.equal(stored, ready.passages, "no duplicate passages: the killed worker's run was purged");
    assert.equal(await count(db.pool, 'SELECT count(*) AS n FROM cerebro_hidden_passages'), 0);
    assert.ok((await hits(host, QUESTIONS[0]!)).length > 0);
  });

  test('a document replaced from another host while a worker indexes it: the job stops, the new version is indexed once', async (t) => {
    const db = await migratedPgDatabase();
    // The worker's first job stores its passages, then waits (a long document) until it is stopped.
    let jobs = 0;
    const slowFirst: PreparePool = {
      async prepare(task, signal, onPassages) {
        if (jobs++ > 0) return prepare.prepare(task, signal, onPassages);
        await prepare.prepare(task, signal, onPassages);
        return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
      },
      close: async () => undefined,
    };
    const worker = new CerebroEngine({
      storage: pgEngineStorage(db.pool),
      pool: slowFirst,
      indexing: { owner: owner('trabajador'), pollMs: 20, leaseMs: 300 },
    });
    // An api host: it stores and queues, never indexes (never started).
    const api = new CerebroEngine({ storage: pgEngineStorage(await db.connect()), pool: prepare });
    t.after(async () => {
      await worker.stop();
      await db.close();
    });
    await worker.start();
    const first = await worker.documents.submit(SPACE, { name: 'manual.html', path: APT, bytes: 51_414 });
    const runRows = () => count(db.pool, 'SELECT count(*) AS n FROM cerebro_hidden_passages WHERE run IS NOT NULL');
    await until('la primera versión a medias', async () => (await runRows()) > 0);

    const replaced = await api.documents.submit(SPACE, { name: 'manual.html', path: CONFIGURATION, bytes: 28_276 });
    assert.deepEqual([replaced.id, replaced.version], [first.id, 2]);
    await until('la segunda versión lista', async () => {
      const doc = await api.documents.document(SPACE, first.id);
      return doc?.state === 'ready' && doc.version === 2;
    });
    await worker.documents.idle();
    assert.equal(jobs, 2, 'the first job stopped, the second version claimed once');
    const ready = (await api.documents.document(SPACE, first.id))!;
    assert.equal(ready.attempts, 1);
    assert.equal(await count(db.pool, 'SELECT count(*) AS n FROM cerebro_passages'), ready.passages, 'only v2 stored');
    assert.equal(await count(db.pool, 'SELECT count(*) AS n FROM cerebro_hidden_passages'), 0, "v1's run purged");
    assert.ok((await hits(api, REPLACED_QUESTIONS[0]!)).length > 0, 'the api host answers from the new version');
  });
});
