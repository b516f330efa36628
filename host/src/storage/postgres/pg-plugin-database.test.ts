// The plugin database's contract (the same one the SQLite file passes) on PostgreSQL, through a plugin's own role
// and schema; and what that role may not reach: the host's tables and another plugin's schema.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pluginDatabaseContract } from '../port/plugin-database.contract.js';
import { createPgPool } from './pg-driver.js';
import { PgPluginSchemas } from './pg-plugin-schemas.js';
import { pluginSchemasDatabase } from './testing/plugin-schemas-database.js';
import { createTestDatabase, pgUnavailable, TEST_SERVER_URL } from './testing/pg-test-database.js';

const skip = (await pgUnavailable()) ?? false;

describe('PostgreSQL plugin database', { skip }, () => {
  pluginDatabaseContract('PostgreSQL plugin database', async () => {
    const server = await pluginSchemasDatabase();
    return { db: await server.schemas.database('contrato'), close: server.close };
  });

  test("a plugin's role reaches its own schema only: not the host's tables, not another plugin's", async (t) => {
    const server = await pluginSchemasDatabase();
    t.after(server.close);
    await server.host.query("CREATE TABLE owners_copy AS SELECT 'secreto'::text AS name");
    const ventas = await server.schemas.database('ventas');
    const fuentes = await server.schemas.database('fuentes');
    await ventas.execute('CREATE TABLE ventas_pedidos (id INTEGER PRIMARY KEY, total INTEGER NOT NULL)');
    await ventas.execute('INSERT INTO ventas_pedidos (id, total) VALUES (?, ?)', [1, 30]);
    const where = await server.host.query<{ schemaname: string; tableowner: string }>(
      "SELECT schemaname, tableowner FROM pg_tables WHERE tablename = 'ventas_pedidos'",
    );
    assert.deepEqual(
      where.rows.map((r) => r.schemaname),
      ['plugin_ventas'],
      "an unqualified table lands in the plugin's schema",
    );
    await assert.rejects(ventas.query('SELECT name FROM public.owners_copy'), /permission denied/);
    await assert.rejects(fuentes.query('SELECT total FROM plugin_ventas.ventas_pedidos'), /permission denied/);
    await assert.rejects(fuentes.execute('CREATE TABLE public.fuentes_fuera (id INTEGER)'), /permission denied/);
    // Leaving its role is not possible: the connection logged in as it.
    await fuentes.execute('RESET ROLE');
    await assert.rejects(fuentes.query('SELECT total FROM plugin_ventas.ventas_pedidos'), /permission denied/);
    assert.deepEqual(await ventas.query('SELECT total FROM ventas_pedidos'), [{ total: 30 }]);
  });

  test('a second host provisioning the same plugin at once gets the same role; the pools keep working', async (t) => {
    const server = await pluginSchemasDatabase();
    t.after(server.close);
    const other = new PgPluginSchemas(server.host, server.url);
    const [a, b] = await Promise.all([server.schemas.provision('ventas'), other.provision('ventas')]);
    assert.equal(a.role, b.role);
    assert.equal(a.secret, b.secret, 'the password made first is kept, not replaced');
  });

  test('a host user that may not create roles is told what the server must grant, naming the plugin', async (t) => {
    const db = await createTestDatabase(2);
    const user = `cerebro_t_sin_roles_${Date.now()}`;
    await db.pool.query(`CREATE ROLE ${user} LOGIN`);
    await db.pool.query(`GRANT CREATE ON DATABASE "${new URL(db.url).pathname.slice(1)}" TO ${user}`);
    await db.pool.query(`GRANT CREATE ON SCHEMA public TO ${user}`);
    const url = new URL(db.url);
    url.username = user;
    const pool = await createPgPool(url.toString(), { max: 2 });
    t.after(async () => {
      await pool.end();
      await db.drop();
      const admin = await createPgPool(TEST_SERVER_URL, { max: 1 });
      await admin.query(`DROP ROLE IF EXISTS ${user}`);
      await admin.end();
    });
    await assert.rejects(new PgPluginSchemas(pool, url.toString()).provision('ventas'), /plugin "ventas".*CREATEROLE/);
  });
});
