// A write's audit event is stored before its answer is sent, so a client reading the audit log right after the answer
// finds it (read-your-writes), whichever path the request took through the pipeline.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import polka from 'polka';
import { Reply } from '@cerebro/sdk';
import type { RouteAuditHook, RouteAuditing } from '../audit/audit-services.js';
import { loadHostConfig } from '../config/host-config.js';
import { HostRootTokens } from '../kernel/root-tokens.js';
import { resolveToken } from '../kernel/resolve.js';
import { HostTokens } from '../kernel/tokens.js';
import { createRootLogger } from '../logging/logger.js';
import { buildHostContainer } from '../main/host-container.js';
import { openMigratedTestDatabase } from '../storage/sqlite/access-fixture.js';
import type { HostRoute } from './route.js';

/** An audit trail that takes a while to store each event, and says in `log` when it started and ended. */
function slowAuditing(log: string[]): RouteAuditing {
  return {
    hookFor(route): RouteAuditHook | undefined {
      if (route.method === 'GET') return undefined;
      return {
        snapshots: false,
        snapshot: async () => null,
        record: () => {
          log.push(`grabando ${route.operationId}`);
          return new Promise((resolve) =>
            setTimeout(() => {
              log.push(`grabado ${route.operationId}`);
              resolve();
            }, 40),
          );
        },
      };
    },
  };
}

const route = (operationId: string, method: HostRoute['method'], handler: HostRoute['handler']): HostRoute => ({
  operationId,
  method,
  path: `/api/${operationId}`,
  access: 'public',
  ungated: true,
  tag: 'prueba',
  summary: operationId,
  handler,
});

test('every path answers a successful write only once its audit event is stored; a refusal records nothing', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-pipeline-audit-'));
  const sqlite = openMigratedTestDatabase();
  t.after(async () => {
    await sqlite.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const container = buildHostContainer(
    loadHostConfig({ CEREBRO_DATA_DIR: dataDir }),
    createRootLogger('silent'),
    sqlite.db,
    { now: () => Date.now() },
  );
  const log: string[] = [];
  container.register(HostTokens.RouteAuditor, { useValue: slowAuditing(log) });
  const pipeline = resolveToken(container, HostRootTokens.Pipeline);

  const routes = [
    // Answered within the call when nothing is audited: a write now waits for its event.
    route('borrar', 'DELETE', () => ({ borrado: true })),
    route('borrar-tarde', 'DELETE', async () => undefined),
    // A JSON body: the path that reads it first.
    route('crear', 'POST', (ctx) => Reply.json(201, { recibido: ctx.body })),
    route('rechazar', 'POST', () => Reply.json(409, { detail: 'No.', codigo: 'conflicto' })),
  ];
  const app = polka();
  for (const r of routes) app.add(r.method, r.path, pipeline.handlerFor(r));
  const server = app.listen(0).server!;
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;

  const answered = async (operationId: string, init: RequestInit): Promise<number> => {
    const res = await fetch(`${base}/${operationId}`, init);
    await res.arrayBuffer();
    log.push(`respondido ${operationId}`);
    return res.status;
  };
  assert.equal(await answered('borrar', { method: 'DELETE' }), 200);
  assert.equal(await answered('borrar-tarde', { method: 'DELETE' }), 204);
  const json = { 'content-type': 'application/json' };
  assert.equal(await answered('crear', { method: 'POST', headers: json, body: '{"a":1}' }), 201);
  assert.equal(await answered('rechazar', { method: 'POST', headers: json, body: '{}' }), 409);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(log, [
    'grabando borrar',
    'grabado borrar',
    'respondido borrar',
    'grabando borrar-tarde',
    'grabado borrar-tarde',
    'respondido borrar-tarde',
    'grabando crear',
    'grabado crear',
    'respondido crear',
    'respondido rechazar',
  ]);
});
