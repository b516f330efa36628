// Backup and restore over the real CLI and server (issue 23, item 1): a backup taken while documents are uploaded,
// replaced and deleted restores into a folder that never reads or writes the original's: deletes on either side
// leave the other intact, and with the original folder gone every document of the copy downloads and re-indexes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { startServer, type ServerProcess } from './support/server-process.js';
import { sqliteOnly } from './support/backend.js';

const CLI = fileURLToPath(new URL('../../host/dist/cli/main.js', import.meta.url));
const ENV = { CEREBRO_PLUGINS_ALLOW: 'marca' };
const SPACE = 'demo';

function cli(dataDir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'admin', ...args], {
    env: { ...process.env, CEREBRO_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

const text = (name: string, version: number): string =>
  Array.from(
    { length: 40 },
    (_, i) => `El documento ${name}, versión ${version}, párrafo ${i}: copias, discos y restauraciones.\n\n`,
  ).join('');

class Api {
  constructor(
    readonly server: ServerProcess,
    readonly key: string,
  ) {}

  async call(method: string, path: string, body?: FormData): Promise<{ status: number; bytes: Buffer; json: any }> {
    const res = await fetch(`${this.server.url}/api/rag/${SPACE}${path}`, {
      method,
      body,
      headers: { authorization: `Bearer ${this.key}` },
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    let json: any = null;
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch {
      /* a download */
    }
    return { status: res.status, bytes, json };
  }

  async upload(name: string, content: string): Promise<void> {
    const form = new FormData();
    form.append('archivos', new Blob([content]), name);
    const res = await this.call('POST', '/load_documents', form);
    assert.equal(res.status, 202, JSON.stringify(res.json));
  }

  async documents(): Promise<any[]> {
    return (await this.call('GET', '/documents?limite=200')).json.documentos;
  }

  async idle(timeoutMs = 60_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!(await this.call('GET', '/indexing_status')).json.listo) {
      if (Date.now() > until) throw new Error('indexing did not finish');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const demoKey = async (dataDir: string): Promise<string> =>
  /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(await readFile(join(dataDir, 'primer-arranque.txt'), 'utf8'))![0];

test(
  'a backup under load restores into a folder that never touches the original, and survives the original being deleted',
  sqliteOnly('copia de seguridad de los archivos SQLite de la carpeta de datos'),
  async (t) => {
    const root = await mkdtemp(join(tmpdir(), 'cerebro-respaldo-'));
    const original = join(root, 'original');
    const backup = join(root, 'respaldo');
    const copy = join(root, 'copia');
    const servers: ServerProcess[] = [];
    t.after(async () => {
      for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.crash();
      await rm(root, { recursive: true, force: true });
    });
    const a = new Api(servers[servers.push(await startServer(original, ENV)) - 1]!, await demoKey(original));
    // A plugin's own file (as a model or an upload of a module would be) travels with the backup.
    await mkdir(join(original, 'plugins', 'marca'), { recursive: true });
    await writeFile(join(original, 'plugins', 'marca', 'nota.bin'), 'archivo del plugin');

    for (let i = 0; i < 12; i++) await a.upload(`base-${i}.txt`, text(`base-${i}`, 1));
    // Load while the backup runs: new documents, replacements (their old originals are retired) and deletions.
    let loading = true;
    const load = (async () => {
      for (let round = 2; loading || round < 4; round++) {
        for (let i = 0; i < 12; i += 3) await a.upload(`base-${i}.txt`, text(`base-${i}`, round));
        await a.upload(`nuevo-${round}.txt`, text(`nuevo-${round}`, 1));
        if (round % 2 === 0)
          assert.equal((await a.call('DELETE', `/documents/nuevo-${round - 1}.txt`)).status, round > 2 ? 200 : 404);
      }
    })();
    const made = await cli(original, ['respaldo', backup, '--json']);
    loading = false;
    await load;
    assert.equal(made.code, 0, made.stderr);
    const summary = JSON.parse(made.stdout);
    assert.deepEqual(summary.ausentes, []);
    assert.ok(
      summary.originales.archivos >= 12 && summary.originales.enlazados === summary.originales.archivos,
      made.stdout,
    );
    assert.equal(summary.archivos_plugins >= 1, true);
    assert.ok(existsSync(join(backup, 'respaldo.json')));
    assert.equal((await cli(original, ['respaldo', backup])).code, 1, 'an existing backup folder is refused');
    await a.idle();

    // A folder with anything in it is refused, and left as it was.
    const busy = join(root, 'ocupada');
    await mkdir(busy);
    await writeFile(join(busy, 'algo.txt'), 'x');
    const refused = await cli(original, ['restaurar', backup, busy]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /no está vacía/);
    assert.equal(await readFile(join(busy, 'algo.txt'), 'utf8'), 'x');

    const restored = await cli(original, ['restaurar', backup, copy]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(
      restored.stderr,
      new RegExp(`CEREBRO_DATA_DIR=${copy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} npx cerebro serve`),
    );
    assert.equal(await readFile(join(copy, 'plugins', 'marca', 'nota.bin'), 'utf8'), 'archivo del plugin');

    // Both running side by side: a delete on either leaves the other's document and bytes intact.
    const b = new Api(servers[servers.push(await startServer(copy, ENV)) - 1]!, a.key);
    const inCopy = await b.documents();
    assert.ok(inCopy.length >= 12);
    const bothHave = (await a.documents())
      .map((d) => d.nombre)
      .filter((n: string) => inCopy.some((d) => d.nombre === n));
    const [gone, kept] = [bothHave[0], bothHave[1]];
    const keptInA = (await a.call('GET', `/documents/${kept}`)).bytes;
    assert.equal((await b.call('DELETE', `/documents/${gone}`)).status, 200);
    assert.equal(
      (await a.call('GET', `/documents/${gone}`)).status,
      200,
      'deleting on the copy must not touch the original',
    );
    assert.equal((await a.call('DELETE', `/documents/${kept}`)).status, 200);
    const keptInB = await b.call('GET', `/documents/${kept}`);
    assert.equal(keptInB.status, 200, 'deleting on the original must not touch the copy');
    assert.equal(sha256(keptInB.bytes), inCopy.find((d) => d.nombre === kept).sha256);
    void keptInA;

    // The original folder goes away entirely; every document of the copy still downloads and indexes again.
    await servers[0]!.stop();
    await servers[1]!.stop();
    await rm(original, { recursive: true, force: true });
    const db = new Database(join(copy, 'cerebro.db'));
    assert.equal(
      db.prepare("SELECT count(*) FROM cerebro_documents WHERE path LIKE '/%'").pluck().get(),
      0,
      'no absolute path stored',
    );
    db.prepare("UPDATE cerebro_documents SET state = 'queued', passages = 0").run();
    db.close();
    const c = new Api(servers[servers.push(await startServer(copy, ENV)) - 1]!, a.key);
    await c.idle();
    const final = await c.documents();
    assert.equal(final.length, inCopy.length - 1);
    for (const doc of final) {
      assert.equal(doc.estado, 'listo', `${doc.nombre}: ${JSON.stringify(doc.error)}`);
      assert.ok(doc.pasajes > 0, doc.nombre);
      const download = await c.call('GET', `/documents/${doc.nombre}`);
      assert.equal(download.status, 200, doc.nombre);
      assert.equal(sha256(download.bytes), doc.sha256, doc.nombre);
    }
    // The backup itself is untouched by all of this: it still verifies and restores.
    const again = await cli(copy, ['restaurar', backup, join(root, 'otra'), '--json']);
    assert.equal(again.code, 0, again.stderr);
  },
);
