import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../database.js';
import { PluginDatabases } from '../plugin-databases.js';
import { pluginSchemaRepositoryContract } from '../port/plugin-schema-repository.contract.js';
import { SqlitePluginSchemaRepository } from './plugin-schema-repository.js';

// Moving old tables out of cerebro.db is SQLite's own past; it is tested in storage/legacy-plugin-tables.test.ts.
pluginSchemaRepositoryContract('SQLite', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-plugin-schema-'));
  const hostDb = openDatabase(join(dataDir, 'cerebro.db'));
  const files = new PluginDatabases(dataDir);
  return {
    repo: new SqlitePluginSchemaRepository(hostDb, files),
    close: async () => {
      files.closeAll();
      hostDb.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});
