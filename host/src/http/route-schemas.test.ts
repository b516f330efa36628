import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startHost } from '../main/start-host.js';
import { routeSchemaProblem } from './schema-validation.js';

// Routes compile their body and query schemas at their first request, not at start (see compileBodyValidator), and
// the plugins shipped with the host are not compiled when they load either (validateManifest): this compiles every
// route's, the host's and every workspace plugin's, so a broken schema fails here, not in production.
test("every mounted route's body and query schemas compile", async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-route-schemas-'));
  const host = await startHost({
    config: { dataDir, port: 0, host: '127.0.0.1', logLevel: 'silent', discoverPlugins: true, bootstrapDemo: false },
    logDestination: pino.destination({ dest: '/dev/null', sync: false }),
  });
  t.after(async () => {
    await host.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const withSchemas = host.routes.filter((r) => r.requestSchema !== undefined || r.query !== undefined);
  assert.ok(withSchemas.length > 20, `${withSchemas.length} routes with schemas`);
  assert.ok(
    host.routes.some((r) => r.path.startsWith('/api/mod/ventas/')),
    'plugin routes are mounted too',
  );
  for (const route of withSchemas) assert.equal(routeSchemaProblem(route), null, `${route.method} ${route.path}`);
});
