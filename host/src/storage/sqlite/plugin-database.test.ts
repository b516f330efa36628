import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pluginDatabaseContract } from '../port/plugin-database.contract.js';
import { PluginDatabases } from '../plugin-databases.js';

// The contract on a real plugin file, opened the way the host opens it (WAL, busy timeout).
pluginDatabaseContract('SQLite plugin database', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-plugin-db-'));
  const files = new PluginDatabases(dataDir);
  return {
    db: files.database('contrato'),
    close: async () => {
      files.closeAll();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});
