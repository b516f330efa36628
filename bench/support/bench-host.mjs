// The Cerebro host the access-path benchmarks measure, production-shaped: every workspace plugin loaded (their
// routes are in the router), a temporary database (or the PostgreSQL database and Redis given, which must be empty),
// one owner, one space "demo", one read key; logs to /dev/null through the destination the host writes stdout with
// (logDestination).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logDestination, startHost } from '@cerebro/host';

export async function startBenchHost({ databaseUrl = null, redisUrl = null } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'cerebro-bench-'));
  const host = await startHost({
    config: {
      dataDir,
      port: 0,
      host: '127.0.0.1',
      logLevel: 'info',
      discoverPlugins: true,
      bootstrapDemo: false,
      databaseUrl,
      redisUrl,
    },
    logDestination: logDestination('/dev/null'),
  });
  const owner = await host.admin.createOwner({ name: 'bench' });
  await host.admin.createSpace({ id: 'demo', ownerId: owner.id, modules: ['api'] });
  const key = (await host.admin.issueKey(owner.id, 'bench', [], 'lee')).token;
  return {
    host,
    key,
    close: async () => {
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
