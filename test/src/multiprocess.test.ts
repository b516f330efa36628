// Several processes, one truth (issue #24 item 6): two `api` processes and `worker`s run as real processes on one
// data directory (one SQLite database in WAL mode) and are driven from outside, as a load balancer would. Limits,
// the daily quota, Idempotency-Key holds and indexing jobs must be exact across them, also when one is killed.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { startTestSite } from '@cerebro/plugin-fuentes/testing';
import { call, callAt, json, type Answer } from './support/bearer-call.js';
import { freshSpace } from './support/fresh-space.js';
import { startServer, type ServerProcess } from './support/server-process.js';
import { sqliteOnly } from './support/backend.js';

const SPACE = 'demo';
const ENV = { CEREBRO_COUNTER_FLUSH_MS: '200', CEREBRO_DISCOVER_PLUGINS: 'false' };

function upload(server: ServerProcess, key: string, name: string, text: string): Promise<Answer> {
  const form = new FormData();
  form.append('archivos', new Blob([text], { type: 'text/plain' }), name);
  return call(server, key, `/rag/${SPACE}/load_documents`, { method: 'POST', body: form });
}

/** Reads the shared database (or a plugin's, by its file) while the processes run (WAL lets another reader in). */
function readDb<T>(dataDir: string, fn: (db: Database.Database) => T, file = 'cerebro.db'): T {
  const db = new Database(join(dataDir, file), { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

interface DocumentRow {
  id: string;
  state: string;
  passages: number;
  lease_owner: string | null;
}

const documentRow = (dataDir: string, name: string): DocumentRow | undefined =>
  readDb(
    dataDir,
    (db) =>
      db
        .prepare('SELECT id, state, passages, lease_owner FROM cerebro_documents WHERE space = ? AND name = ?')
        .get(SPACE, name) as DocumentRow | undefined,
  );

const balance = (dataDir: string): number =>
  readDb(
    dataDir,
    (db) =>
      db
        .prepare('SELECT a.credits FROM accounts a JOIN spaces s ON s.account_id = a.id WHERE s.id = ?')
        .pluck()
        .get(SPACE) as number,
  );

const DAY_MS = 86_400_000;

/** The count of the current window of a limit bucket (`espacio:<id>:dia`, `clave:<id>:minuto`). */
const windowCount = (dataDir: string, bucket: string, windowMs: number): number =>
  readDb(
    dataDir,
    (db) =>
      (db
        .prepare('SELECT calls FROM limit_windows WHERE bucket = ? AND window_start = ?')
        .pluck()
        .get(bucket, Math.floor(Date.now() / windowMs) * windowMs) as number | undefined) ?? 0,
  );

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits, if needed, so the next `seconds` fall inside one clock minute (the windows of the per-minute limit). */
async function awayFromMinuteEnd(seconds: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}

/**
 * An OpenAI-compatible chat endpoint that answers every question with a sentence citing passage 1, or, while
 * `holding`, keeps the requests open (a paid question in flight when its process is killed).
 */
async function startChat(): Promise<{ url: string; received: number; holding: boolean; close(): Promise<void> }> {
  const state = { url: '', received: 0, holding: false, close: async () => {} };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.received++;
      if (state.holding) return; // never answered: its caller is killed meanwhile
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'c',
          object: 'chat.completion',
          model: 'm',
          choices: [{ index: 0, message: { role: 'assistant', content: 'El plazo es de 30 días [1].' } }],
          usage: { prompt_tokens: 10, completion_tokens: 7, total_tokens: 17 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/**
 * Starts `cerebro serve` processes of a role on one data directory; the test's end kills those still running, then
 * runs `cleanup` and deletes the directory.
 */
function processesOn(
  t: { after(fn: () => unknown): void },
  dataDir: string,
  env: Record<string, string>,
  cleanup: () => Promise<void>,
): { running: ServerProcess[]; start(role: 'api' | 'worker'): Promise<ServerProcess> } {
  const running: ServerProcess[] = [];
  t.after(async () => {
    for (const s of running) if (s.child.exitCode === null && s.child.signalCode === null) await s.crash();
    await cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });
  return {
    running,
    start: async (role) => {
      const server = await startServer(dataDir, env, { args: ['--rol', role] });
      running.push(server);
      return server;
    },
  };
}

test(
  '2 api + 1 worker processes on one database: limits, quota, Idempotency-Key and indexing are exact across them',
  sqliteOnly('lee cerebro.db (en PostgreSQL: scale-out.test.ts y postgres-server.test.ts)'),
  async (t) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-multiproc-'));
    const chat = await startChat();
    const env = { ...ENV, CEREBRO_LLM_URL: chat.url, CEREBRO_LLM_MODEL: 'm' };
    const { running, start } = processesOn(t, dataDir, env, () => chat.close());
    let a = await start('api'); // first: it creates the demo owner, space and key
    const b = await start('api');
    const secrets = await readFile(join(dataDir, 'primer-arranque.txt'), 'utf8');
    const key = /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(secrets)![0];
    const operator = /cra_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(secrets)![0];
    assert.equal((await call(a, key, '/health')).body.rol, 'api');
    assert.equal((await call(b, key, '/ready')).body.rol, 'api');

    await t.test('an api process never indexes: an upload stays queued until a worker runs', async () => {
      assert.equal((await upload(a, key, 'garantia.txt', 'La garantía cubre 30 días desde la compra.')).status, 202);
      await new Promise((r) => setTimeout(r, 2000)); // two polls of any runner that might be running
      assert.equal(documentRow(dataDir, 'garantia.txt')?.state, 'queued');
      const worker = await start('worker');
      assert.equal((await call(worker, key, '/health')).body.rol, 'worker');
      await until('the worker indexes it', () => documentRow(dataDir, 'garantia.txt')?.state === 'ready' || undefined);
      // The api processes see the new passages (their caches follow the shared change version).
      const status = await call(b, key, `/rag/${SPACE}/indexing_status`);
      assert.equal(status.body.estado, 'listo');
    });

    await t.test('the daily quota is exact across both api processes', async () => {
      const id = 'cupo';
      const own = await freshSpace(a.url, operator, id);
      const Q = 15;
      assert.equal((await call(b, own, `/companies/${id}/api-config`, json('PATCH', { cuota_diaria: Q }))).status, 200);
      await new Promise((r) => setTimeout(r, 600)); // every process has flushed its calls of the day (the PATCH)
      const used = windowCount(dataDir, `espacio:${id}:dia`, DAY_MS);
      assert.ok(used >= 1 && used < Q - 5, `${used} calls already today (the PATCH: counted, never refused)`);
      const answers = await Promise.all(
        Array.from({ length: 3 * Q }, (_, i) => call(i % 2 ? a : b, own, `/rag/${id}/documents`)),
      );
      assert.equal(answers.filter((r) => r.status === 200).length, Q - used);
      assert.ok(answers.every((r) => r.status === 200 || r.status === 429));
      assert.equal(answers.find((r) => r.status === 429)!.body.codigo, 'daily_quota_exceeded');
    });

    await t.test(
      "an account's storage quota holds across both api processes: parallel uploads never exceed it",
      async () => {
        const id = 'almacen';
        const own = await freshSpace(a.url, operator, id);
        const account = readDb(dataDir, (db) =>
          db.prepare('SELECT account_id FROM spaces WHERE id = ?').pluck().get(id),
        );
        const N = 3;
        const quota = await callAt(
          a.url,
          operator,
          `/admin/cuentas/${account}/cuota`,
          json('PATCH', { max_documentos: N }),
        );
        assert.equal(quota.status, 200, JSON.stringify(quota.body));
        const sendTo = (server: ServerProcess, i: number) => {
          const form = new FormData();
          form.append('archivos', new Blob([`Documento ${i}.`], { type: 'text/plain' }), `doc-${i}.txt`);
          return call(server, own, `/rag/${id}/load_documents`, { method: 'POST', body: form });
        };
        // Room held by one process counts in the other's check (it lived in each process's memory).
        const answers = await Promise.all(Array.from({ length: 4 * N }, (_, i) => sendTo(i % 2 ? b : a, i)));
        const stored = readDb(dataDir, (db) =>
          db.prepare('SELECT count(*) FROM cerebro_documents WHERE space = ?').pluck().get(id),
        );
        assert.equal(answers.filter((r) => r.status === 202).length, N);
        assert.equal(stored, N);
        for (const r of answers.filter((r) => r.status !== 202)) {
          assert.equal(r.status, 422);
          assert.equal(r.body.codigo, 'storage_quota_documents');
        }
      },
    );

    await t.test('an Idempotency-Key retried against the other api process is charged once', async () => {
      const before = balance(dataDir);
      const ask = json('POST', { pregunta: '¿Cuántos días cubre la garantía?' }, { 'idempotency-key': 'pregunta-1' });
      const first = await call(a, key, `/rag/${SPACE}/conversations`, ask);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const retry = await call(b, key, `/rag/${SPACE}/conversations`, ask);
      assert.equal(retry.status, 200);
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(retry.body, first.body);
      assert.equal(before - balance(dataDir), 1);
    });

    await t.test(
      'a paid request whose process is killed mid-request is charged once when retried elsewhere',
      async () => {
        const before = balance(dataDir);
        const ask = json(
          'POST',
          { pregunta: '¿Qué días cubre la garantía desde la compra?' },
          { 'idempotency-key': 'pregunta-2' },
        );
        chat.holding = true;
        const received = chat.received;
        const inFlight = call(a, key, `/rag/${SPACE}/conversations`, ask).catch((err: unknown) => err);
        await until('the question reaches the model', () => chat.received > received || undefined);
        assert.equal(before - balance(dataDir), 1, 'the first process charged it');
        await a.crash();
        assert.ok((await inFlight) instanceof Error, 'the killed process never answered');
        chat.holding = false;
        const retry = await call(b, key, `/rag/${SPACE}/conversations`, ask);
        assert.equal(retry.status, 200, JSON.stringify(retry.body));
        assert.equal(retry.headers.get('idempotent-replayed'), null, 'it ran again: the first never finished');
        assert.equal(before - balance(dataDir), 1, 'refunded once, charged once');
        const again = await call(b, key, `/rag/${SPACE}/conversations`, ask);
        assert.equal(again.headers.get('idempotent-replayed'), 'true');
        assert.equal(before - balance(dataDir), 1);
        a = await start('api'); // the balancer's second api process again, for what follows
      },
    );

    await t.test("a killed worker's document is indexed once by another worker: no duplicate passages", async () => {
      const worker = running[2]!;
      // Long enough that the job is still running when it is killed (thousands of passages).
      const text = Array.from(
        { length: 60_000 },
        (_, i) => `Registro ${i} del inventario: la caja ${i % 97} guarda piezas de la serie ${i % 31}.`,
      ).join('\n\n');
      assert.equal((await upload(b, key, 'inventario.txt', text)).status, 202);
      const prefix = `${worker.pid}-`;
      await until(
        'the worker claims it',
        () => documentRow(dataDir, 'inventario.txt')?.lease_owner?.startsWith(prefix) || undefined,
        60_000,
      );
      await worker.crash();
      assert.equal(documentRow(dataDir, 'inventario.txt')?.state, 'processing', 'killed mid-job');
      const second = await start('worker');
      const done = await until(
        'the second worker indexes it',
        () => {
          const row = documentRow(dataDir, 'inventario.txt');
          return row && (row.state === 'ready' || row.state === 'failed') ? row : undefined;
        },
        120_000,
      );
      assert.equal(done.state, 'ready');
      assert.ok(done.lease_owner === null);
      // The killed run's passages are purged; what stays is one copy of each passage.
      await until(
        'the purge',
        () =>
          readDb(dataDir, (db) => db.prepare('SELECT count(*) FROM cerebro_hidden_passages').pluck().get()) === 0 ||
          undefined,
        60_000,
      );
      const stored = readDb(
        dataDir,
        (db) =>
          db
            .prepare(
              'SELECT count(*) AS n, count(DISTINCT ord) AS ords FROM cerebro_passages WHERE space = ? AND document_id = ?',
            )
            .get(SPACE, done.id) as { n: number; ords: number },
      );
      assert.ok(done.passages > 100, `${done.passages} passages`);
      assert.deepEqual(stored, { n: done.passages, ords: done.passages });
      assert.equal((await call(second, key, '/health')).body.rol, 'worker');
    });

    await t.test('a space limited to L requests per minute gets L across both api processes, not L each', async () => {
      const id = 'ritmo';
      const own = await freshSpace(b.url, operator, id);
      const L = 20;
      await awayFromMinuteEnd(15);
      assert.equal(
        (await call(a, own, `/companies/${id}/api-config`, json('PATCH', { limite_por_minuto: L }))).status,
        200,
      );
      // The PATCH of the space's own settings is not counted in its minute window (it is never refused there).
      const used = windowCount(dataDir, `espacio:${id}:minuto`, 60_000);
      assert.ok(used < L - 10, `${used} calls already this minute`);
      const answers = await Promise.all(
        Array.from({ length: 3 * L }, (_, i) => call(i % 2 ? b : a, own, `/rag/${id}/documents`)),
      );
      const ok = answers.filter((r) => r.status === 200).length;
      assert.equal(ok, L - used, `${ok} answered 200 after ${used} earlier calls this minute`);
      assert.ok(answers.every((r) => r.status === 200 || r.status === 429));
      const refused = answers.find((r) => r.status === 429)!;
      assert.equal(refused.headers.get('ratelimit-remaining'), '0');
      assert.equal(refused.body.codigo, 'rate_limited');
    });

    await t.test(
      'a Studio session ended through one api process answers 401 at the next request on the other',
      async () => {
        const owner = await call(a, operator, '/admin/propietarios', json('POST', { nombre: 'Prueba sesión' }));
        const issued = await call(b, operator, `/admin/propietarios/${owner.body.id}/sesiones`, { method: 'POST' });
        assert.equal(issued.status, 201, JSON.stringify(issued.body));
        const cookie = { cookie: `cerebro_sesion=${issued.body.token}` };
        const asCookie = () => fetch(`${a.url}/api/companies`, { headers: cookie }).then((r) => r.status);
        assert.equal(await asCookie(), 200);
        assert.equal(await asCookie(), 200, 'served from the memo of process a');
        assert.equal((await call(b, issued.body.token, '/sesion', { method: 'DELETE' })).status, 204);
        assert.equal(await asCookie(), 401);
      },
    );

    await t.test("a key's own limits are exact across both api processes", async () => {
      // Daily quota: a key lowers its own (it may: never above what it has, and it cannot remove it again).
      const daily = await freshSpace(a.url, operator, 'cupoclave');
      const dailyId = /crb_([0-9a-f]{16})\./.exec(daily)![1]!;
      const D = 15;
      const set = await call(b, daily, `/tokens/${dailyId}`, json('PATCH', { cuota_diaria: D }));
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.deepEqual([set.body.limite_por_minuto, set.body.cuota_diaria], [null, D]);
      const lift = await call(a, daily, `/tokens/${dailyId}`, json('PATCH', { cuota_diaria: null }));
      assert.equal(lift.status, 403);
      assert.equal(lift.body.codigo, 'key_scope_exceeded');
      await new Promise((r) => setTimeout(r, 600)); // every process has flushed its day counts
      const today = windowCount(dataDir, `clave:${dailyId}:dia`, DAY_MS);
      assert.ok(today < D - 5, `${today} calls of the key today`); // key routes (/tokens) are not space routes
      const days = await Promise.all(
        Array.from({ length: 3 * D }, (_, i) => call(i % 2 ? a : b, daily, '/rag/cupoclave/documents')),
      );
      assert.equal(days.filter((r) => r.status === 200).length, D - today);
      const overQuota = days.find((r) => r.status === 429)!;
      assert.equal(overQuota.body.codigo, 'daily_quota_exceeded');
      assert.match(overQuota.body.detail, new RegExp(`cuota diaria de ${D} peticiones de esta clave`));
      assert.match(overQuota.headers.get('ratelimit-policy')!, new RegExp(`^${D};w=86400;limite="clave"`));
      assert.equal(windowCount(dataDir, `clave:${dailyId}:dia`, DAY_MS), D);

      // Per-minute limit of the key, below the space's: the key's applies and the headers name it.
      const id = 'ritmoclave';
      const own = await freshSpace(b.url, operator, id);
      const keyId = /crb_([0-9a-f]{16})\./.exec(own)![1]!;
      const K = 12;
      await awayFromMinuteEnd(15);
      assert.equal((await call(a, own, `/tokens/${keyId}`, json('PATCH', { limite_por_minuto: K }))).status, 200);
      assert.equal(
        (await call(b, own, `/companies/${id}/api-config`, json('PATCH', { limite_por_minuto: 100 }))).status,
        200,
      );
      const used = windowCount(dataDir, `clave:${keyId}:minuto`, 60_000);
      assert.ok(used >= 1 && used < K - 5, `${used} calls of the key this minute`);
      const answers = await Promise.all(
        Array.from({ length: 3 * K }, (_, i) => call(i % 2 ? a : b, own, `/rag/${id}/documents`)),
      );
      const ok = answers.filter((r) => r.status === 200);
      assert.equal(ok.length, K - used, `${ok.length} answered 200 after ${used} earlier calls this minute`);
      const refused = answers.find((r) => r.status === 429)!;
      assert.equal(refused.body.codigo, 'rate_limited');
      assert.match(refused.body.detail, new RegExp(`esta clave admite ${K} por minuto`));
      assert.equal(refused.headers.get('ratelimit-policy'), `${K};w=60;limite="clave", 100;w=60;limite="espacio"`);
      assert.equal(refused.headers.get('ratelimit-remaining'), '0');
      // A request let through lists both limits, the one closest to refusing (the key's) first.
      assert.match(
        ok[0]!.headers.get('ratelimit-policy')!,
        new RegExp(`^${K};w=60;limite="clave", 100;w=60;limite="espacio"`),
      );
    });
  },
);

/** Reads the fuentes plugin's own database (its runs). */
const readFuentes = <T>(dataDir: string, fn: (db: Database.Database) => T): T =>
  readDb(dataDir, fn, join('plugins', 'fuentes.db'));

interface RunRow {
  id: string;
  state: string;
  trigger: string;
  counts: string;
  owner: string | null;
}

const runsOf = (dataDir: string, source: string): RunRow[] =>
  readFuentes(dataDir, (db) =>
    db
      .prepare('SELECT id, state, trigger, counts, owner FROM fuentes_runs WHERE source_id = ? ORDER BY created_at')
      .all(source),
  ) as RunRow[];

test(
  'fuentes on 2 api + 1 worker processes: a source scheduled every hour runs once; a killed worker’s run is finished once by another',
  sqliteOnly('lee plugins/fuentes.db y escribe plugin_jobs en cerebro.db'),
  async (t) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-multiproc-fuentes-'));
    // 40 pages of 250 ms read one at a time: a run lasts ten seconds, long enough to start a process and kill the
    // worker mid-way.
    const site = await startTestSite({ generatedPages: 40, latencyMs: 250 });
    const env = {
      CEREBRO_PLUGINS_ALLOW: 'fuentes',
      CEREBRO_FUENTES_PERMITIDOS: 'localhost',
      CEREBRO_FUENTES_PAUSA_MS: '0',
      CEREBRO_FUENTES_CONCURRENCIA_POR_EJECUCION: '1',
    };
    const { start } = processesOn(t, dataDir, env, () => site.close());
    const a = await start('api');
    const b = await start('api');
    const worker = await start('worker');
    const secrets = await readFile(join(dataDir, 'primer-arranque.txt'), 'utf8');
    const operator = /cra_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(secrets)![0];
    const owner = await call(a, operator, '/admin/propietarios', json('POST', { nombre: 'Prueba fuentes' }));
    const space = 'rastreo';
    assert.equal(
      (
        await call(
          a,
          operator,
          '/admin/espacios',
          json('POST', { id: space, propietario: owner.body.id, modulos: ['api', 'fuentes'] }),
        )
      ).status,
      201,
    );
    const issued = await call(
      a,
      operator,
      `/admin/propietarios/${owner.body.id}/claves`,
      json('POST', { nombre: space, espacios: [space], permiso: 'escribe' }),
    );
    const key = issued.body.token.token as string;
    const base = `/mod/fuentes/${space}/fuentes`;

    await t.test('a source scheduled every hour runs once across the processes, in the worker', async () => {
      const created = await call(
        b,
        key,
        base,
        json('POST', { tipo: 'url', url: `${site.url}/gen/0.html`, cada_horas: 1 }),
      );
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const source = created.body.id as string;
      // The hour passes: the schedule's job becomes due now (the processes' clocks cannot be moved from here).
      const db = new Database(join(dataDir, 'cerebro.db'));
      db.pragma('busy_timeout = 5000');
      const moved = db
        .prepare(
          "UPDATE plugin_jobs SET run_at = ? WHERE plugin = 'fuentes' AND kind = 'programada' AND payload LIKE ?",
        )
        .run(Date.now(), `%${source}%`).changes;
      db.close();
      assert.equal(moved, 1, 'one schedule job for the source, though three processes started with it');
      const done = await until('the scheduled run', () => {
        const runs = runsOf(dataDir, source);
        return runs.length > 0 && runs.every((r) => r.state === 'completada') ? runs : undefined;
      });
      // Every process has looked at the queue several times since: none launched the turn again.
      await new Promise((r) => setTimeout(r, 3000));
      assert.equal(runsOf(dataDir, source).length, 1, JSON.stringify(runsOf(dataDir, source)));
      assert.equal(done[0]!.trigger, 'programada');
      assert.ok(done[0]!.owner?.startsWith(`${worker.pid}-`), 'run by the worker, never by an api process');
      const next = readDb(dataDir, (db) =>
        db
          .prepare(
            "SELECT state, run_at FROM plugin_jobs WHERE plugin = 'fuentes' AND kind = 'programada' AND payload LIKE ?",
          )
          .get(`%${source}%`),
      ) as { state: string; run_at: number };
      assert.equal(next.state, 'queued');
      assert.ok(next.run_at > Date.now() + 3_500_000, 'its next turn is an hour away');
    });

    await t.test('a worker killed mid-crawl: the run is finished once by another worker', async () => {
      const created = await call(
        a,
        key,
        base,
        json('POST', { tipo: 'sitemap', url: `${site.url}/gen/sitemap.xml`, lanzar: true }),
      );
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const source = created.body.id as string;
      await until('the worker is mid-crawl', () => site.hits('/gen/5.html') > 0 || undefined);
      // A process starting meanwhile leaves the live worker's run alone (no second run, no claim of its job).
      await start('api');
      const [cut, ...others] = runsOf(dataDir, source);
      assert.deepEqual(others, []);
      assert.equal(cut!.state, 'ejecutando');
      assert.ok(cut!.owner?.startsWith(`${worker.pid}-`));
      const live = readDb(dataDir, (db) =>
        db
          .prepare(
            "SELECT attempts, lease_owner FROM plugin_jobs WHERE plugin = 'fuentes' AND kind = 'ejecucion' AND payload LIKE ?",
          )
          .get(`%${cut!.id}%`),
      ) as { attempts: number; lease_owner: string };
      assert.equal(live.attempts, 1);
      assert.ok(live.lease_owner.startsWith(`${worker.pid}-`));
      await worker.crash();
      assert.equal(runsOf(dataDir, source)[0]!.state, 'ejecutando', 'killed mid-run');
      assert.equal((await call(b, key, `${base}/${source}/lanzar`, { method: 'POST' })).status, 409, 'still its run');
      const second = await start('worker');
      const runs = await until(
        'the second worker finishes it',
        () => {
          const all = runsOf(dataDir, source);
          return all.every((r) => r.state !== 'en_cola' && r.state !== 'ejecutando') ? all : undefined;
        },
        120_000,
      );
      assert.deepEqual(
        runs.map((r) => [r.id, r.state]),
        [[cut!.id, 'completada']],
        'the same run, finished once',
      );
      assert.ok(runs[0]!.owner?.startsWith(`${second.pid}-`));
      const counts = JSON.parse(runs[0]!.counts);
      assert.equal(counts.encontradas, 40, JSON.stringify(counts));
      assert.equal(counts.fallidas, 0, JSON.stringify(counts));
      const view = await call(b, key, `${base}/${source}`);
      assert.equal(view.body.ultima_ejecucion.estado, 'completada');
      const job = readDb(dataDir, (db) =>
        db
          .prepare(
            "SELECT state, attempts FROM plugin_jobs WHERE plugin = 'fuentes' AND kind = 'ejecucion' AND payload LIKE ?",
          )
          .get(`%${cut!.id}%`),
      ) as { state: string; attempts: number };
      assert.deepEqual([job.state, job.attempts], ['done', 2]);
    });
  },
);
