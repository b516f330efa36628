import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../services/clock.js';
import type { Permission } from '../http.js';
import type { PluginDefinition } from '../manifest.js';
import { TestClient } from './client.js';
import { importHost, scratchBackend, type Cleanup } from './import-host.js';

export { TestClient, type TestResponse, type TestRequestOptions } from './client.js';
export { KeepAliveClient, multipartBytes, type KeepAliveResponse } from './keep-alive.js';
export type { Cleanup } from './import-host.js';
export { openTestDatabase, type TestDatabase, type TestDatabaseOptions } from './test-database.js';

/** Operator actions available to tests (the host's admin service). */
export interface TestAdmin {
  createOwner(input: {
    name: string;
    email?: string;
    id?: string;
    credits?: number;
  }): Promise<{ id: string; cuenta: string }>;
  deleteOwner(id: string): Promise<void>;
  createSpace(input: {
    id: string;
    ownerId: string;
    name?: string;
    modules?: string[];
    trialEndsAt?: string;
  }): Promise<void>;
  assignSpace(spaceId: string, ownerId: string | null): Promise<void>;
  enableModule(spaceId: string, module: string): Promise<void>;
  disableModule(spaceId: string, module: string): Promise<void>;
  setTrialEnd(spaceId: string, isoDate: string | null): Promise<void>;
  setApiEnabled(spaceId: string, enabled: boolean): Promise<void>;
  setOwnerReadOnly(ownerId: string, readOnly: boolean): Promise<void>;
  setOwnerReadOnlyOnSpace(spaceId: string, readOnly: boolean): Promise<void>;
  setPayment(accountId: string, state: { unpaidSince?: string | null; suspended?: boolean }): Promise<void>;
  addCredits(accountId: string, amount: number): Promise<number>;
  issueKey(
    ownerId: string,
    nombre: string,
    espacios: string[],
    permiso: Permission,
  ): Promise<{ id: string; token: string }>;
  issueConsoleSession(ownerId: string): Promise<{ id: string; token: string }>;
  issueOperatorCredential(name: string): Promise<{ id: string; token: string }>;
}

export interface TestHostOptions {
  /** Plugins to load. Discovery of installed plugins is off unless `discover` is true. */
  plugins?: PluginDefinition[];
  discover?: boolean;
  /** Modules enabled on the test space (default: `api` and every loaded plugin). */
  modules?: string[];
  /** Id of the test space (default `pruebas`). */
  spaceId?: string;
  /** Credits of the owner's account (default 1000). */
  credits?: number;
  clock?: Clock;
  /** Extra environment (`CEREBRO_*`, plugin config) for this host only. */
  env?: Record<string, string>;
}

export interface TestHost {
  /** Server root, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Client for `<url>/api` with the write key. */
  client: TestClient;
  spaceId: string;
  ownerId: string;
  accountId: string;
  /** Write (`escribe`) and read (`lee`) keys of the owner, reaching the test space. */
  writeKey: string;
  readKey: string;
  admin: TestAdmin;
  dataDir: string;
  /** The running host (`RunningHost` of @cerebro/host). */
  host: {
    close(): Promise<void>;
    /** Writes the call counters still in memory (resolves once they are stored). */
    flushCounters(): Promise<void>;
    openapi(): unknown;
    plugins: readonly { manifest: { id: string }; state: string }[];
  };
  /**
   * Resolves when the test space has nothing queued or being indexed: documents uploaded, or added by a plugin
   * through `HostServices.Documents`, are searchable (or failed with a reason). Rejects after `timeoutMs`.
   */
  waitForIndexing(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a real host in-process on a temporary database and a free port, with the chosen plugins, an owner,
 * a space with the plugins' modules, and a write and a read key. Closed (and its files removed) when `t` ends.
 * @example
 * test('saluda', async (t) => {
 *   const h = await startTestHost(t, { plugins: [miPlugin] });
 *   const res = await h.client.get(`/mod/hola/${h.spaceId}/saludo`);
 *   assert.equal(res.status, 200);
 * });
 */
export async function startTestHost(t: Cleanup | undefined, options: TestHostOptions = {}): Promise<TestHost> {
  const { startHost } = await importHost();
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-test-'));
  // SQLite in `dataDir`, or with CEREBRO_TEST_BACKEND=postgres a PostgreSQL database (and Redis) of this host's own.
  const backend = await scratchBackend();
  let host: Awaited<ReturnType<typeof startHost>>;
  try {
    host = await startHost({
      env: {
        ...process.env,
        CEREBRO_LOG_LEVEL: process.env.CEREBRO_LOG_LEVEL ?? 'silent',
        ...backend.env,
        ...options.env,
      },
      config: {
        dataDir,
        port: 0,
        host: '127.0.0.1',
        discoverPlugins: options.discover ?? false,
        bootstrapDemo: false,
        shutdownGraceMs: 2000,
      },
      plugins: options.plugins ?? [],
      clock: options.clock,
    });
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    await backend.close();
    throw err;
  }
  const admin = host.admin as TestAdmin;
  const spaceId = options.spaceId ?? 'pruebas';
  const owner = await admin.createOwner({ name: 'Propietario de pruebas', credits: options.credits ?? 1000 });
  const modules = options.modules ?? ['api', ...host.plugins.map((p: { manifest: { id: string } }) => p.manifest.id)];
  await admin.createSpace({ id: spaceId, ownerId: owner.id, modules });
  const writeKey = (await admin.issueKey(owner.id, 'pruebas-escribe', [], 'escribe')).token;
  const readKey = (await admin.issueKey(owner.id, 'pruebas-lee', [], 'lee')).token;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await host.close();
    await rm(dataDir, { recursive: true, force: true });
    await backend.close();
  };
  t?.after(close);
  const client = new TestClient(`${host.url}/api`, writeKey);
  const waitForIndexing = async (timeoutMs = 30_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const status = await client.get(`/rag/${encodeURIComponent(spaceId)}/indexing_status`);
      if (status.status === 200 && status.body.listo) return;
      if (Date.now() > until) throw new Error(`La indexación del espacio ${spaceId} no terminó en ${timeoutMs} ms.`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return {
    url: host.url,
    client,
    spaceId,
    ownerId: owner.id,
    accountId: owner.cuenta,
    writeKey,
    readKey,
    admin,
    dataDir,
    host,
    waitForIndexing,
    close,
  };
}
