// A plugin schema as `pg_restore --no-owner` leaves it in a new database (its objects the restoring user's, a grant
// to another role on it) is handed to the plugin's role for this database when the host provisions the plugin,
// also by a host that is not a superuser (CREATEROLE and owner of the database, as the README asks); the
// isolation between plugins holds afterwards.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPgPool } from './pg-driver.js';
import { PgPluginSchemas, pluginRoleName } from './pg-plugin-schemas.js';
import { createTestDatabase, pgUnavailable, TEST_SERVER_URL } from './testing/pg-test-database.js';

const skip = (await pgUnavailable()) ?? false;

test('a restored plugin schema is handed to the plugin role of the new database, and only to it', {
  skip,
}, async (t) => {
  const db = await createTestDatabase(2);
  const database = new URL(db.url).pathname.slice(1);
  const user = `cerebro_t_host_${process.pid}_${Date.now()}`;
  await db.pool.query(`CREATE ROLE ${user} LOGIN CREATEROLE`);
  await db.pool.query(`ALTER DATABASE ${database} OWNER TO ${user}`);
  await db.pool.query(`ALTER SCHEMA public OWNER TO ${user}`);
  const url = new URL(db.url);
  url.username = user;
  const host = await createPgPool(url.toString(), { max: 2 });
  const schemas = new PgPluginSchemas(host, url.toString());
  t.after(async () => {
    await schemas.closeAll();
    await host.end();
    await db.drop();
    const admin = await createPgPool(TEST_SERVER_URL, { max: 1 });
    for (const role of [pluginRoleName(database, 'ventas'), pluginRoleName(database, 'fuentes'), user])
      await admin.query(`DROP ROLE IF EXISTS "${role}"`);
    await admin.end();
  });
  const fuentes = await schemas.database('fuentes');
  const fuentesRole = pluginRoleName(database, 'fuentes');
  // What the restore leaves: the schema and its objects the restoring (host) user's, a grant to another role.
  for (const sql of [
    'CREATE SCHEMA plugin_ventas',
    'CREATE TABLE plugin_ventas.ventas_pedidos (id SERIAL PRIMARY KEY, total INTEGER NOT NULL)',
    'CREATE TABLE plugin_ventas.ventas_lineas (id INTEGER GENERATED ALWAYS AS IDENTITY, pedido INTEGER)',
    'CREATE SEQUENCE plugin_ventas.ventas_folio',
    'CREATE VIEW plugin_ventas.ventas_resumen AS SELECT count(*) AS pedidos FROM plugin_ventas.ventas_pedidos',
    "CREATE TYPE plugin_ventas.ventas_estado AS ENUM ('abierto', 'cerrado')",
    'CREATE FUNCTION plugin_ventas.ventas_doble(x INTEGER) RETURNS INTEGER LANGUAGE sql AS $$ SELECT x * 2 $$',
    'INSERT INTO plugin_ventas.ventas_pedidos (total) VALUES (30)',
    `GRANT USAGE, CREATE ON SCHEMA plugin_ventas TO "${fuentesRole}"`,
  ])
    await host.query(sql);

  const ventas = await schemas.database('ventas');
  assert.deepEqual(await ventas.query('SELECT total FROM ventas_pedidos'), [{ total: 30 }]);
  await ventas.execute('INSERT INTO ventas_pedidos (total) VALUES (?)', [12]);
  await ventas.execute('INSERT INTO ventas_lineas (pedido) VALUES (?)', [1]);
  assert.deepEqual(await ventas.query("SELECT nextval('ventas_folio') AS n"), [{ n: 1 }]);
  assert.deepEqual(await ventas.query('SELECT pedidos, ventas_doble(2) AS d FROM ventas_resumen'), [
    { pedidos: 2, d: 4 },
  ]);
  // The plugin's later migrations change its tables: it owns them.
  await ventas.execute("ALTER TABLE ventas_pedidos ADD COLUMN estado ventas_estado NOT NULL DEFAULT 'abierto'");
  const owners = await db.pool.query<{ owner: string }>(
    `SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class
      WHERE relnamespace = 'plugin_ventas'::regnamespace`,
  );
  assert.deepEqual(
    owners.rows.map((r) => r.owner),
    [pluginRoleName(database, 'ventas')],
  );
  await assert.rejects(fuentes.query('SELECT total FROM plugin_ventas.ventas_pedidos'), /permission denied/);
  await assert.rejects(fuentes.execute('CREATE TABLE plugin_ventas.fuentes_fuera (id INTEGER)'), /permission denied/);
  const member = await db.pool.query<{ member: boolean }>("SELECT pg_has_role($1, $2, 'MEMBER') AS member", [
    user,
    pluginRoleName(database, 'ventas'),
  ]);
  assert.equal(member.rows[0]!.member, false, 'the host joined the role only for the handover');
});
