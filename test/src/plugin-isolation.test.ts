import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { definePlugin, HostServices } from '@cerebro/sdk';
import { startTestHost } from '@cerebro/sdk/testing';
import { startHost } from '@cerebro/host';
import { counterPlugin, echoPlugin } from './support/plugins.js';
import { sqliteOnly } from './support/backend.js';

const config = (dataDir: string) => ({
  dataDir,
  port: 0,
  host: '127.0.0.1',
  logLevel: 'silent',
  discoverPlugins: false,
  bootstrapDemo: false,
});

async function tempDir(t: { after(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cerebro-isolation-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Files of the data directory this process still holds open (Linux: /proc/self/fd). */
function openFilesUnder(dir: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(dir) ? [target] : [];
    } catch {
      return []; // closed while listing
    }
  });
}

/** A plugin that tries to read the host's key table through its storage handle. */
const curiousPlugin = definePlugin({
  manifest: {
    id: 'curioso',
    version: '1.0.0',
    sdk: '^1.0.0',
    title: 'Curioso',
    needs: [HostServices.Storage],
    routes: [
      { id: 'espiar', method: 'GET', path: '/claves', permission: 'lee', summary: 'Intenta leer las claves del host' },
    ],
  },
  setup(scope) {
    const storage = scope.resolve(HostServices.Storage);
    return {
      handlers: {
        espiar: () => {
          const attempts = [
            'SELECT count(*) FROM api_keys',
            'SELECT count(*) FROM accounts',
            'SELECT count(*) FROM contador_visitas',
          ];
          return {
            errores: attempts.map((sql) => {
              try {
                storage.prepare(sql).get();
                return 'leído';
              } catch (err) {
                return (err as Error).message;
              }
            }),
          };
        },
      },
    };
  },
});

test(
  "a plugin's storage handle reaches only its own file: host tables and other plugins' tables do not exist there",
  sqliteOnly('lee cerebro.db y usa el Storage síncrono (en PostgreSQL: host/src/plugins/pg-plugin-loading.test.ts)'),
  async (t) => {
    const h = await startTestHost(t, { plugins: [counterPlugin, curiousPlugin] });
    assert.equal((await h.client.post(`/mod/contador/${h.spaceId}/visitas`)).body.n, 1);
    const res = await h.client.get(`/mod/curioso/${h.spaceId}/claves`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.errores, [
      'no such table: api_keys',
      'no such table: accounts',
      'no such table: contador_visitas',
    ]);

    assert.ok(existsSync(join(h.dataDir, 'plugins', 'contador.db')));
    const host = new Database(join(h.dataDir, 'cerebro.db'), { readonly: true });
    t.after(() => host.close());
    assert.equal(host.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'contador%'").pluck().get(), 0);
    assert.equal(
      host.prepare("SELECT count(*) AS n FROM cerebro_migrations WHERE owner LIKE 'plugin:%'").pluck().get(),
      0,
    );
  },
);

test('upgrading an installation whose plugin tables live in the host file moves them, rows and migration records included', async (t) => {
  const dataDir = await tempDir(t);
  await (await startHost({ config: config(dataDir) })).close();
  // Seed the host file the way versions before one file per plugin did: migration applied there, rows written.
  const migration = counterPlugin.manifest.migrations![0]!;
  const checksum = createHash('sha256').update(migration.sql).digest('hex'); // how the host's ledger records it
  const old = new Database(join(dataDir, 'cerebro.db'));
  old.exec(migration.sql);
  old.prepare("INSERT INTO contador_visitas (space_id, n) VALUES ('tienda', 41)").run();
  old
    .prepare(
      "INSERT INTO cerebro_migrations (owner, id, checksum, applied_at) VALUES ('plugin:contador', ?, ?, '2026-01-01T00:00:00Z')",
    )
    .run(migration.id, checksum);
  old.close();

  const host = await startHost({ config: config(dataDir), plugins: [counterPlugin] });
  const admin = host.admin;
  const owner = await admin.createOwner({ name: 'Tienda' });
  await admin.createSpace({ id: 'tienda', ownerId: owner.id, modules: ['api', 'contador'] });
  const key = (await admin.issueKey(owner.id, 'k', [], 'escribe')).token;
  const res = await fetch(`${host.url}/api/mod/contador/tienda/visitas`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
  });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { n: 42 }, 'the count goes on from the moved row');
  await host.close();

  const main = new Database(join(dataDir, 'cerebro.db'), { readonly: true });
  const plugin = new Database(join(dataDir, 'plugins', 'contador.db'), { readonly: true });
  t.after(() => {
    main.close();
    plugin.close();
  });
  assert.equal(main.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'contador_visitas'").pluck().get(), 0);
  assert.equal(
    main.prepare("SELECT count(*) FROM cerebro_migrations WHERE owner = 'plugin:contador'").pluck().get(),
    0,
  );
  assert.deepEqual(
    plugin.prepare("SELECT id, applied_at FROM cerebro_migrations WHERE owner = 'plugin:contador'").all(),
    [{ id: migration.id, applied_at: '2026-01-01T00:00:00Z' }],
  );
});

test('shutdown closes the host file and every plugin file', async (t) => {
  const dataDir = await tempDir(t);
  const host = await startHost({ config: config(dataDir), plugins: [counterPlugin, curiousPlugin, echoPlugin()] });
  assert.ok(
    openFilesUnder(dataDir).some((f) => f.endsWith('contador.db')),
    'the plugin file is open while serving',
  );
  assert.deepEqual(
    readdirSync(join(dataDir, 'plugins'))
      .filter((f) => f.endsWith('.db'))
      .sort(),
    ['contador.db', 'curioso.db'],
    'a plugin without storage or migrations gets no file',
  );
  await host.close();
  assert.deepEqual(openFilesUnder(dataDir), []);
});
