// A plugin's schema restored from a dump (`pg_restore --no-owner`, as `cerebro admin respaldo` prints it) holds
// tables owned by the user who restored them, and its role's name carries the new database's, so it is a role that
// never owned them: the plugin could not read its own `cerebro_migrations` and the host did not start. At every
// provisioning the host hands what is in the schema to the plugin's role, and takes back any grant on the schema to
// another role (a dump restored with its privileges grants it to the old database's role), so the schema is again
// that role's alone. Nothing to do on a database the host provisioned itself: the queries find nothing.
import type { PoolClient } from './pg-driver.js';

/**
 * The statements that give `role` everything in `schema` it does not own: tables, views and free-standing
 * sequences (a table's own sequences and indexes follow it), functions and types.
 */
const HANDOVER = `
WITH target AS (SELECT oid FROM pg_roles WHERE rolname = $2),
     ns AS (SELECT oid FROM pg_namespace WHERE nspname = $1)
SELECT format('ALTER %s %I.%I OWNER TO %I',
         CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                        WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END,
         $1::text, c.relname, $2::text) AS sql
  FROM pg_class c
 WHERE c.relnamespace = (SELECT oid FROM ns) AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
   AND c.relowner <> (SELECT oid FROM target)
   AND NOT EXISTS (SELECT 1 FROM pg_depend d
                    WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                      AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i'))
UNION ALL
SELECT format('ALTER ROUTINE %I.%I(%s) OWNER TO %I', $1::text, p.proname, pg_get_function_identity_arguments(p.oid),
         $2::text)
  FROM pg_proc p
 WHERE p.pronamespace = (SELECT oid FROM ns) AND p.prokind IN ('f', 'p')
   AND p.proowner <> (SELECT oid FROM target)
UNION ALL
SELECT format('ALTER %s %I.%I OWNER TO %I', CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, $1::text,
         t.typname, $2::text)
  FROM pg_type t
 WHERE t.typnamespace = (SELECT oid FROM ns) AND t.typowner <> (SELECT oid FROM target)
   AND (t.typtype IN ('e', 'd') OR (t.typtype = 'c' AND (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c'))`;

/** The grants on the schema to roles other than its owner and the plugin's (PUBLIC's are revoked beside this). */
const STRAY_GRANTS = `
SELECT format('REVOKE ALL ON SCHEMA %I FROM %I', n.nspname, r.rolname) AS sql
  FROM pg_namespace n, aclexplode(n.nspacl) a JOIN pg_roles r ON r.oid = a.grantee
 WHERE n.nspname = $1 AND a.grantee NOT IN (n.nspowner, (SELECT oid FROM pg_roles WHERE rolname = $2))
 GROUP BY n.nspname, r.rolname`;

/**
 * Makes `schema` the plugin role's alone again; runs inside the provisioning transaction. Handing an object to a
 * role takes being a member of it: a host that is not a superuser (CREATEROLE, as the README asks) joins the role
 * for the transaction only.
 */
export async function handOverPluginSchema(client: PoolClient, schema: string, role: string): Promise<void> {
  for (const { sql } of (await client.query<{ sql: string }>(STRAY_GRANTS, [schema, role])).rows)
    await client.query(sql);
  const statements = (await client.query<{ sql: string }>(HANDOVER, [schema, role])).rows;
  if (statements.length === 0) return;
  const joined = (
    await client.query<{ join: boolean }>(
      `SELECT NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
              AND NOT pg_has_role(current_user, $1, 'MEMBER') AS join`,
      [role],
    )
  ).rows[0]!.join;
  const grant = (verb: 'GRANT' | 'REVOKE') =>
    client.query(`${verb} "${role.replaceAll('"', '""')}" ${verb === 'GRANT' ? 'TO' : 'FROM'} CURRENT_USER`);
  if (joined) await grant('GRANT');
  for (const { sql } of statements) await client.query(sql);
  if (joined) await grant('REVOKE');
}
