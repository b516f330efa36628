// A test database with the plugins' schemas on it. Plugin roles belong to the server, not to the database, so
// `close` drops the database and then every role provisioned through it.
import { createPgPool, type Pool } from '../pg-driver.js';
import { PgPluginSchemas, pluginRoleName } from '../pg-plugin-schemas.js';
import { createTestDatabase, TEST_SERVER_URL } from './pg-test-database.js';

export interface PluginSchemasDatabase {
  schemas: PgPluginSchemas;
  /** The host's pool on the database. */
  host: Pool;
  url: string;
  close(): Promise<void>;
}

export async function pluginSchemasDatabase(): Promise<PluginSchemasDatabase> {
  const db = await createTestDatabase(4);
  const schemas = new PgPluginSchemas(db.pool, db.url);
  const database = new URL(db.url).pathname.slice(1);
  const made = new Set<string>();
  const provision = schemas.provision.bind(schemas);
  schemas.provision = async (pluginId) => {
    made.add(pluginRoleName(database, pluginId));
    return provision(pluginId);
  };
  return {
    schemas,
    host: db.pool,
    url: db.url,
    async close() {
      await schemas.closeAll();
      await db.drop();
      const admin = await createPgPool(TEST_SERVER_URL, { max: 1 });
      try {
        for (const role of made) await admin.query(`DROP ROLE IF EXISTS "${role}"`);
      } finally {
        await admin.end();
      }
    },
  };
}
