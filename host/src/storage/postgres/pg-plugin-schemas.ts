// One schema and one role per plugin on PostgreSQL: the isolation one file per plugin gives on SQLite. The host
// creates, once per database, the plugin's role (LOGIN, no other attribute) and its schema `plugin_<id>`, on which
// only that role may create and read; the role's search_path is that schema, so the plugin's unqualified SQL lands
// there. The plugin's pool connects AS that role, so nothing a plugin runs (RESET ROLE, SET search_path, a qualified
// name) reaches the host's tables (no grant to PUBLIC on them) or another plugin's schema (no USAGE).
//
// Roles belong to the server, not to one database: a role's name carries a digest of the database's name, so two
// Cerebro databases on one server never share a plugin's role. Its password is made here and kept in a host table
// only the host's role reads.
import { createHash, randomBytes } from 'node:crypto';
import { tablePrefixOf } from '../plugin-storage.js';
import { createPgPool, inTransaction, type Pool } from './pg-driver.js';
import { PgPluginDatabase } from './pg-plugin-database.js';
import { handOverPluginSchema } from './pg-plugin-schema-handover.js';

/** Connections per plugin: a plugin's transactions and the statements beside them, not the host's request load. */
const PLUGIN_POOL_SIZE = 4;

const ROLES_TABLE = `CREATE TABLE IF NOT EXISTS cerebro_plugin_roles (
  plugin TEXT PRIMARY KEY,
  role TEXT NOT NULL,
  secret TEXT NOT NULL
)`;

/** What a plugin's database is made of on the server. */
export interface PluginSchema {
  schema: string;
  role: string;
}

export const pluginSchemaName = (pluginId: string): string => `plugin_${pluginId.replace(/-/g, '_')}`;

/** `cp_<digest of database and plugin>_<plugin>`, within PostgreSQL's 63-byte names. */
export function pluginRoleName(database: string, pluginId: string): string {
  const digest = createHash('sha256').update(`${database}\0${pluginId}`).digest('hex').slice(0, 10);
  return `cp_${digest}_${pluginId.replace(/-/g, '_')}`.slice(0, 63);
}

/** The plugins' schemas and roles on PostgreSQL, as the plugin loader uses them. */
export interface PluginSchemas {
  /** The plugin's pool, connected as its role (its role and schema provisioned on first use): where it migrates. */
  pool(pluginId: string): Promise<Pool>;
  /** The plugin's `HostServices.Database` on PostgreSQL (its role and schema provisioned on first use). */
  database(pluginId: string): Promise<PgPluginDatabase>;
  /** The handle `database` opened for the plugin (synchronously, once opened). */
  opened(pluginId: string): PgPluginDatabase;
  /** Closes every plugin's pool; safe to call twice. */
  closeAll(): Promise<void>;
}

export class PgPluginSchemas implements PluginSchemas {
  private readonly pools = new Map<string, Promise<Pool>>();
  /** The pools already connected, by plugin. */
  private readonly ready = new Map<string, Pool>();
  private readonly handles = new Map<string, PgPluginDatabase>();

  /** `hostPool` is the host's own (it creates roles and schemas); `url` the server the plugins' pools connect to. */
  constructor(
    private readonly hostPool: Pool,
    private readonly url: string,
  ) {}

  /** Creates (once per database) the plugin's role and schema; returns their names. */
  async provision(pluginId: string): Promise<PluginSchema & { secret: string }> {
    try {
      return await this.provisionLocked(pluginId);
    } catch (err) {
      // 42501: insufficient_privilege. Said plainly: the fix is a grant on the server, not a change in Cerebro.
      if ((err as { code?: string }).code === '42501') {
        throw new Error(
          `PostgreSQL no deja crear el rol y el esquema del plugin "${pluginId}" (${(err as Error).message}): el usuario de CEREBRO_DATABASE_URL necesita CREATEROLE y ser dueño de la base de datos (o CREATE en ella).`,
        );
      }
      throw err;
    }
  }

  private async provisionLocked(pluginId: string): Promise<PluginSchema & { secret: string }> {
    const schema = pluginSchemaName(pluginId);
    return inTransaction(this.hostPool, async (client) => {
      // Hosts starting together provision one at a time: CREATE ROLE and CREATE SCHEMA are not IF-NOT-EXISTS-safe
      // under concurrency (a unique violation in the catalogue).
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('cerebro:plugins', 0))");
      await client.query(ROLES_TABLE);
      const database = (await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db;
      const role = pluginRoleName(database, pluginId);
      const known = await client.query<{ secret: string }>(
        'SELECT secret FROM cerebro_plugin_roles WHERE plugin = $1 AND role = $2',
        [pluginId, role],
      );
      let secret = known.rows[0]?.secret;
      const exists = (await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role])).rowCount;
      if (!secret || !exists) {
        secret = randomBytes(24).toString('hex');
        const verb = exists ? 'ALTER' : 'CREATE';
        const ddl = await client.query<{ sql: string }>(
          `SELECT format('${verb} ROLE %I WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS PASSWORD %L', $1::text, $2::text) AS sql`,
          [role, secret],
        );
        await client.query(ddl.rows[0]!.sql);
        await client.query(
          `INSERT INTO cerebro_plugin_roles (plugin, role, secret) VALUES ($1, $2, $3)
           ON CONFLICT (plugin) DO UPDATE SET role = excluded.role, secret = excluded.secret`,
          [pluginId, role, secret],
        );
      }
      const grants = await client.query<{ sql: string }>(
        `SELECT format('CREATE SCHEMA IF NOT EXISTS %1$I', $1::text) AS sql
         UNION ALL SELECT format('REVOKE ALL ON SCHEMA %1$I FROM PUBLIC', $1::text)
         UNION ALL SELECT format('GRANT USAGE, CREATE ON SCHEMA %1$I TO %2$I', $1::text, $2::text)
         UNION ALL SELECT format('ALTER ROLE %2$I IN DATABASE %3$I SET search_path = %1$I', $1::text, $2::text, $3::text)`,
        [schema, role, database],
      );
      for (const { sql } of grants.rows) await client.query(sql);
      await handOverPluginSchema(client, schema, role);
      return { schema, role, secret };
    });
  }

  /** The plugin's pool, connected as its role (provisioned on first use). */
  pool(pluginId: string): Promise<Pool> {
    let pool = this.pools.get(pluginId);
    if (!pool) {
      pool = this.provision(pluginId).then(({ role, secret, schema }) => {
        const url = new URL(this.url);
        url.username = role;
        url.password = secret;
        // The role's search_path already names the schema; the connection says it too, so a role setting changed by
        // hand on the server cannot send a plugin's tables elsewhere.
        return createPgPool(url.toString(), { max: PLUGIN_POOL_SIZE, options: `-c search_path=${schema}` });
      });
      void pool.then((ready) => this.ready.set(pluginId, ready)).catch(() => this.pools.delete(pluginId));
      this.pools.set(pluginId, pool);
    }
    return pool;
  }

  /** The plugin's `HostServices.Database` on PostgreSQL (provisioned on first use). */
  async database(pluginId: string): Promise<PgPluginDatabase> {
    await this.pool(pluginId);
    return this.opened(pluginId);
  }

  /**
   * The same handle, synchronously, for the plugin loader's service factories, which run after
   * `migratePgPluginSchemas` provisioned every plugin that has migrations or needs a database.
   */
  opened(pluginId: string): PgPluginDatabase {
    let handle = this.handles.get(pluginId);
    if (!handle) {
      const pool = this.ready.get(pluginId);
      if (!pool) throw new Error(`la base de datos del plugin "${pluginId}" aún no está preparada en PostgreSQL`);
      handle = new PgPluginDatabase(pool, tablePrefixOf(pluginId));
      this.handles.set(pluginId, handle);
    }
    return handle;
  }

  /** Closes every plugin's pool; safe to call twice. */
  async closeAll(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    this.ready.clear();
    this.handles.clear();
    await Promise.all(pools.map((p) => p.then((pool) => pool.end()).catch(() => undefined)));
  }
}
