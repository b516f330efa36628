// A full disk, for real (issue 23, item 3): the data folder on a small tmpfs, filled by uploads and indexing. The
// server never dies, answers 507 `insufficient_storage` (never a bare 500, never the client's "La subida se
// interrumpió."), fails a document whose indexing met the full disk with a reason, logs the errno at error level,
// says so in health and metrics, and carries on normally once space is freed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { statfsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { startServer, type ServerProcess } from './support/server-process.js';
import { sqliteOnly } from './support/backend.js';

// What a running server keeps on the disk (the database, its write-ahead log of up to 4 MiB, the 4 MiB reserve)
// takes about 13 MB: 32 MB leave the health check's 8 MB with room once the filler is gone (24 MB left 1.6 MB, and a
// loaded CI machine's larger write-ahead log went under it).
const FS_BYTES = 32 * 1024 * 1024;
const MIN_FREE = 8 * 1024 * 1024;

/** Mounts a tmpfs of `bytes` on a new folder; null (with the reason) where mounting is not allowed. */
function mountTmpfs(dir: string, bytes: number): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return `no se puede montar un tmpfs aquí (${String((err as { stderr?: Buffer }).stderr ?? (err as Error).message).trim()}): hace falta root o CAP_SYS_ADMIN`;
  }
}

/** Text that does not repeat much, so its passages and index entries take real space. */
const documentText = (n: number): string =>
  Array.from(
    { length: 2500 },
    (_, i) =>
      `Párrafo ${i} del documento ${n}: palabra${(i * 7919 + n * 104729) % 100003} y término${(i * 31 + n) % 9973} sobre discos llenos.\n\n`,
  ).join('');

test(
  'a full disk answers 507, fails only the document it hit, never ends the server, and recovers once space is freed',
  sqliteOnly('llena el disco de la carpeta de datos de SQLite y lee cerebro.db'),
  async (t) => {
    const mountPoint = await mkdtemp(join(tmpdir(), 'cerebro-disco-'));
    const refused = mountTmpfs(mountPoint, FS_BYTES);
    if (refused) {
      await rmdir(mountPoint);
      t.skip(refused);
      return;
    }
    const dataDir = join(mountPoint, 'datos');
    let server: ServerProcess | undefined;
    t.after(async () => {
      if (server && server.child.exitCode === null && server.child.signalCode === null) await server.crash();
      execFileSync('umount', [mountPoint]);
      await rm(mountPoint, { recursive: true, force: true });
    });
    server = await startServer(
      dataDir,
      { CEREBRO_PLUGINS_ALLOW: 'marca', CEREBRO_DISK_MIN_FREE_BYTES: String(MIN_FREE), CEREBRO_LOG_LEVEL: 'info' },
      { captureStdout: true },
    );
    const secrets = await readFile(join(dataDir, 'primer-arranque.txt'), 'utf8');
    const key = /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(secrets)![0];
    const operator = /cra_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(secrets)![0];
    const api = async (path: string, init: RequestInit = {}, credential = key) => {
      const res = await fetch(`${server!.url}/api${path}`, {
        ...init,
        headers: { authorization: `Bearer ${credential}`, ...init.headers },
      });
      const text = await res.text();
      let body: any = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* metrics are text */
      }
      return { status: res.status, body, headers: res.headers };
    };
    const upload = (name: string, content: string) => {
      const form = new FormData();
      form.append('archivos', new Blob([content], { type: 'text/plain' }), name);
      return api('/rag/demo/load_documents', { method: 'POST', body: form });
    };
    const health = async () => (await api('/health', {}, operator)).body;

    // At first start the demo space is indexed; until SQLite's next checkpoint gives the write-ahead log's pages
    // back, the small disk can sit under the 8 MB warning (seen once at load 10): wait for it, as after the recovery.
    let started = await health();
    for (let i = 0; i < 100 && started.salud !== 'ok'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      started = await health();
    }
    assert.equal(started.salud, 'ok', JSON.stringify(started.motivos ?? started.disco));
    // Leave a little room: a filler file takes all but ~3 MB.
    const filler = join(mountPoint, 'relleno.bin');
    const { bavail, bsize } = statfsSync(mountPoint);
    await writeFile(filler, Buffer.alloc(Math.max(0, bavail * bsize - 3 * 1024 * 1024)));
    await new Promise((r) => setTimeout(r, 1100)); // health reads the file system at most once a second

    const degraded = await health();
    assert.equal(degraded.salud, 'degradada');
    assert.match(degraded.motivos.join(' '), /poco espacio en el disco de datos/);
    assert.ok(
      degraded.disco.libre_bytes < MIN_FREE && degraded.disco.minimo_libre_bytes === MIN_FREE,
      JSON.stringify(degraded.disco),
    );
    const metrics = await api('/metrics', {}, operator);
    assert.match(metrics.body, /^cerebro_disco_libre_bytes \d+/m);

    // Upload until the disk refuses, and a few more: every answer is 202 or 507, never 400 or 500.
    const statuses: number[] = [];
    for (let n = 0; n < 40 && statuses.filter((s) => s === 507).length < 3; n++) {
      const res = await upload(`doc-${n}.txt`, documentText(n));
      statuses.push(res.status);
      assert.ok(res.status === 202 || res.status === 507, `upload ${n}: ${res.status} ${JSON.stringify(res.body)}`);
      if (res.status === 507) {
        assert.equal(res.body.codigo, 'insufficient_storage');
        assert.match(res.body.detail, /No queda espacio en el disco del servidor/);
      }
    }
    assert.ok(statuses.includes(507), `the disk never filled: ${statuses.join(',')}`);
    const brand = await api('/mod/marca/demo/config', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Tienda del disco lleno' }),
    });
    assert.ok(
      brand.status === 200 || (brand.status === 507 && brand.body.codigo === 'insufficient_storage'),
      `${brand.status} ${JSON.stringify(brand.body)}`,
    );
    assert.equal(server.child.exitCode, null, 'the server is still running');
    assert.equal((await api('/health')).status, 200);

    // Documents accepted before the disk filled are indexed now, on a full disk: the indexing queue meets it too.
    const indexingHitFullDisk = () => /"level":50[^\n]*durante la indexación/.test(server!.stdout());
    for (let i = 0; i < 600 && !indexingHitFullDisk(); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(indexingHitFullDisk(), 'indexing met the full disk and logged it');
    // The reserve the server holds is given back at that moment, so the failure can be written on a full disk. The
    // line is logged before the document's state is written: under load a read right after it still saw the document
    // `procesando` (CI-like load, session 18), so the state is polled for a while before the same assertion.
    const failedByFullDisk = (documentos: { estado: string; error: { codigo: string; motivo: string } | null }[]) =>
      documentos.some(
        (d) =>
          d.estado === 'fallido' &&
          d.error?.codigo === 'sin_espacio' &&
          /disco del servidor se llenó/.test(d.error.motivo),
      );
    let midway = (await api('/rag/demo/indexing_status')).body;
    for (let i = 0; i < 100 && !failedByFullDisk(midway.documentos); i++) {
      await new Promise((r) => setTimeout(r, 100));
      midway = (await api('/rag/demo/indexing_status')).body;
    }
    assert.ok(
      failedByFullDisk(midway.documentos),
      JSON.stringify(midway.documentos.map((d: { estado: string }) => d.estado)),
    );
    assert.equal(server.child.exitCode, null, 'the server is still running after indexing met the full disk');

    const logs = server
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: number; errno?: string; msg: string });
    const diskErrors = logs.filter((l) => l.level >= 50 && (l.errno === 'ENOSPC' || l.errno === 'SQLITE_FULL'));
    assert.ok(diskErrors.length > 0, 'an error-level line names the errno');
    assert.ok(
      logs.every((l) => l.level < 60),
      'nothing fatal',
    );

    // Space comes back: what was waiting finishes (listo, or fallido with the disk's reason), new uploads work again.
    await rm(filler);
    await new Promise((r) => setTimeout(r, 1100));
    const fresh = await upload('despues.txt', documentText(999));
    assert.equal(fresh.status, 202, JSON.stringify(fresh.body));
    let status;
    for (let i = 0; i < 600; i++) {
      status = (await api('/rag/demo/indexing_status')).body;
      if (status.listo) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status.listo, true, JSON.stringify(status));
    for (const doc of status.documentos) {
      if (doc.estado === 'fallido')
        assert.equal(doc.error.codigo, 'sin_espacio', `${doc.nombre}: ${JSON.stringify(doc.error)}`);
      else assert.equal(doc.estado, 'listo', doc.nombre);
    }
    assert.equal(status.documentos.find((d: { nombre: string }) => d.nombre === 'despues.txt').estado, 'listo');
    // Health reads the disk at most once a second, and SQLite gives the write-ahead log's pages back at its next
    // checkpoint: on a loaded machine that can take a few seconds after the last document.
    let recovered = await health();
    for (let i = 0; i < 100 && recovered.salud !== 'ok'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      recovered = await health();
    }
    const files = (await readdir(dataDir)).map((f) => `${f}: ${statSync(join(dataDir, f)).size}`);
    t.diagnostic(`after the recovery: ${JSON.stringify(recovered.disco)}; ${files.join(', ')}`);
    assert.equal(recovered.salud, 'ok', JSON.stringify({ ...recovered, files }));
    assert.equal(server.child.exitCode, null);
    // No original was left behind by a refused upload: every stored file is a document's.
    const db = new Database(join(dataDir, 'cerebro.db'), { readonly: true });
    const named = new Set(db.prepare('SELECT path FROM cerebro_documents').pluck().all() as string[]);
    db.close();
    const stored = (await readdir(join(dataDir, 'documentos'), { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => relative(dataDir, join(e.parentPath, e.name)));
    assert.deepEqual(stored.sort(), [...named].sort());
  },
);
