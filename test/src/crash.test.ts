// The crash suite: the real server process is killed with SIGKILL at the worst moments and restarted on the same
// data directory. After every restart: keys and plugin data work, every accepted document ends `listo` or `fallido` with a reason,
// no temporary upload is left, and call counters lose at most what was counted after their last flush.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import Database from 'better-sqlite3';
import { startServer, type ServerProcess } from './support/server-process.js';
import { sqliteOnly } from './support/backend.js';

const FLUSH_MS = 200;
const ENV = { CEREBRO_COUNTER_FLUSH_MS: String(FLUSH_MS), CEREBRO_PLUGINS_ALLOW: 'marca' };
const SPACE = 'demo';

async function call(
  server: ServerProcess,
  key: string,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/api${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, ...init.headers },
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Reads the data directory's host file while the server runs (WAL lets a second reader in). */
function readDb<T>(dataDir: string, fn: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir, 'cerebro.db'), { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const storedCalls = (dataDir: string, keyId: string): number =>
  readDb(dataDir, (db) => db.prepare('SELECT calls FROM api_keys WHERE id = ?').pluck().get(keyId) as number);

const keyIdOf = (key: string): string => /^crb_([0-9a-f]{16})\./.exec(key)![1]!;

/** Every upload file under `tmp/`, in any process folder. */
function uploadFiles(dataDir: string): string[] {
  const root = join(dataDir, 'tmp');
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true }) as string[]).filter((p) => p.includes('upload-'));
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A multipart upload that sends its first bytes and then waits: the request stays in flight until the crash. */
function startStalledUpload(server: ServerProcess, key: string): { failed: Promise<unknown> } {
  const boundary = 'cerebro-crash-boundary';
  const req = request(`${server.url}/api/rag/${SPACE}/load_documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  const failed = new Promise((resolve) => {
    req.once('error', resolve);
    req.once('response', resolve);
  });
  req.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="archivos"; filename="a-medias.txt"\r\nContent-Type: text/plain\r\n\r\n`,
  );
  req.write('texto que nunca termina de llegar. '.repeat(4000));
  return { failed };
}

function documentText(n: number): string {
  const paragraph = (i: number) =>
    `Sección ${i} del documento ${n}. El servidor indexa este párrafo con su número ${i * 7 + n} y unas palabras más sobre redes, discos y paquetes.\n\n`;
  return Array.from({ length: 3000 }, (_, i) => paragraph(i)).join('');
}

/** At the test's end: kills the server it runs now (`current`), if alive, and removes its data folder. */
function cleanUpAfter(t: TestContext, dataDir: string, current: () => ServerProcess): void {
  t.after(async () => {
    const server = current();
    if (server.child.exitCode === null && server.child.signalCode === null) await server.crash();
    await rm(dataDir, { recursive: true, force: true });
  });
}

test(
  'kill -9 after key creation and a plugin write, during counting, indexing and an upload: every restart comes back consistent',
  sqliteOnly('lee los contadores de cerebro.db mientras el servidor corre'),
  async (t) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-crash-'));
    let server = await startServer(dataDir, ENV);
    cleanUpAfter(t, dataDir, () => server);
    // stderr is a pipe: the first run's credentials are only in the operator's file.
    const secrets = await readFile(join(dataDir, 'primer-arranque.txt'), 'utf8');
    const demoKey = /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(secrets)?.[0];
    assert.ok(demoKey, `no demo key in primer-arranque.txt:\n${server.banner}`);
    const restart = async () => {
      await server.crash();
      server = await startServer(dataDir, ENV);
    };

    // 1. A key created just before the crash survives it (writes are committed before the answer).
    const created = await call(server, demoKey, '/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nombre: 'justo-antes', espacios: [SPACE], permiso: 'escribe' }),
    });
    assert.equal(created.status, 201);
    const key: string = created.body.token.token;
    // A plugin write (marca, in its own database file) answered just before the crash survives it too.
    const patched = await call(server, key, `/mod/marca/${SPACE}/config`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Tienda tras el choque' }),
    });
    assert.equal(patched.status, 200);
    await restart();
    assert.equal((await call(server, key, '/companies')).status, 200);
    assert.equal((await call(server, demoKey, '/companies')).status, 200);
    assert.equal((await call(server, key, `/mod/marca/${SPACE}/config`)).body.name, 'Tienda tras el choque');

    // 2. Counters: what a flush wrote survives; what came after it may be lost, nothing more.
    const keyId = keyIdOf(key);
    const before = storedCalls(dataDir, keyId);
    for (let i = 0; i < 20; i++) assert.equal((await call(server, key, '/companies')).status, 200);
    await until('the counters flush', () => (storedCalls(dataDir, keyId) >= before + 20 ? true : undefined));
    const flushed = storedCalls(dataDir, keyId);
    for (let i = 0; i < 5; i++) assert.equal((await call(server, key, '/companies')).status, 200);
    await restart();
    const afterCrash = storedCalls(dataDir, keyId);
    assert.ok(
      afterCrash >= flushed && afterCrash <= flushed + 5,
      `calls after the crash ${afterCrash}, flushed ${flushed}, 5 made after the flush`,
    );

    // 3. Indexing interrupted: every accepted document ends listo or fallido with a reason after the restart.
    const form = new FormData();
    for (let n = 1; n <= 4; n++) form.append('archivos', new Blob([documentText(n)]), `manual-${n}.txt`);
    form.append('archivos', new Blob(['%PDF-1.4 roto']), 'roto.pdf');
    const upload = await call(server, key, `/rag/${SPACE}/load_documents`, { method: 'POST', body: form });
    assert.equal(upload.status, 202);
    const accepted = (upload.body.documentos as { nombre: string; estado: string }[])
      .filter((d) => d.estado !== 'rechazado')
      .map((d) => d.nombre);
    await restart();
    const pendingAtCrash = readDb(
      dataDir,
      (db) =>
        db
          .prepare("SELECT count(*) FROM cerebro_documents WHERE state IN ('queued', 'processing')")
          .pluck()
          .get() as number,
    );
    assert.ok(pendingAtCrash > 0 || accepted.length === 0, 'the crash must have interrupted indexing');
    const status = await until(
      'indexing to end',
      async () => {
        const s = (await call(server, key, `/rag/${SPACE}/indexing_status`)).body;
        return s.listo ? s : undefined;
      },
      25_000,
    );
    const byName = new Map((status.documentos as any[]).map((d) => [d.nombre, d]));
    for (const name of accepted) {
      const doc = byName.get(name);
      assert.ok(doc, `${name} was accepted and must still be listed`);
      assert.ok(
        doc.estado === 'listo' ||
          (doc.estado === 'fallido' && typeof doc.error?.motivo === 'string' && doc.error.motivo.length > 0),
        `${name}: ${JSON.stringify({ estado: doc.estado, error: doc.error })}`,
      );
    }

    // 4. An upload in flight: a second server on the same data directory leaves its temp file alone; the crash
    //    leaves it behind; the next start removes it.
    const stalled = startStalledUpload(server, key);
    const partial = await until('the upload to reach disk', () => {
      const files = uploadFiles(dataDir).filter((p) => statSync(join(dataDir, 'tmp', p)).isFile());
      return files.length > 0 ? files : undefined;
    });
    const second = await startServer(dataDir, ENV);
    await second.stop();
    assert.ok(
      partial.every((p) => existsSync(join(dataDir, 'tmp', p))),
      "another process must not remove a live server's upload",
    );
    await restart();
    await stalled.failed;
    assert.deepEqual(uploadFiles(dataDir), [], 'no upload of the dead process is left');
    assert.deepEqual(
      readdirSync(join(dataDir, 'tmp')).filter((name) => !name.startsWith(`${server.pid}-`)),
      [],
      'only the live process has a temp folder',
    );
    const listed = (await call(server, key, `/rag/${SPACE}/documents?limite=50`)).body;
    assert.ok(!JSON.stringify(listed).includes('a-medias.txt'), 'an upload cut by the crash was never accepted');
    assert.equal((await call(server, key, '/companies')).status, 200);
    assert.equal(await server.stop(), 0);
  },
);

test(
  'a small original whose writer died before recording its document is removed by a later start once old enough',
  sqliteOnly('escribe en cerebro.db lo que dejaría un proceso muerto'),
  async (t) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-crash-'));
    let server = await startServer(dataDir, ENV);
    cleanUpAfter(t, dataDir, () => server);
    await server.crash();
    // What a process killed between writing a crawled page's original and recording its document leaves: a row no
    // document names. One written long ago (the sweep's hour has passed), one just now (its writer may be alive).
    const write = new Database(join(dataDir, 'cerebro.db'));
    const insert = write.prepare('INSERT INTO cerebro_inline_originals (stored, content, created_at) VALUES (?, ?, ?)');
    insert.run('bd:huerfano-antiguo', Buffer.from('<p>sin documento</p>'), Date.now() - 2 * 60 * 60_000);
    insert.run('bd:reciente', Buffer.from('<p>a punto de registrarse</p>'), Date.now());
    write.close();
    server = await startServer(dataDir, ENV);
    const rows = () =>
      readDb(dataDir, (db) =>
        db.prepare('SELECT stored FROM cerebro_inline_originals ORDER BY stored').pluck().all(),
      ) as string[];
    await until('the old unnamed original to go', () => (rows().includes('bd:huerfano-antiguo') ? undefined : true));
    assert.deepEqual(rows(), ['bd:reciente']);
  },
);
