// Migrations of a PostgreSQL database shared by several hosts: whoever starts first migrates, under an advisory
// lock, while the others wait for it and then find nothing left to do. The rules are the SQLite migrator's
// (storage/migrator.ts): an applied migration whose text changed, or one the code does not know, stops the start.
import { LEDGER, MigrationError, type MigrationSet, migrationChecksum, pendingMigrations } from '../migrator.js';
import { joinedTo, type Pool, type PoolClient } from './pg-driver.js';

/**
 * The session-level advisory lock every host takes to migrate and bootstrap. Session-level: a host that dies while
 * holding it loses its connection, and the server releases the lock.
 */
const LOCK_KEY = "hashtextextended('cerebro:migraciones', 0)";

const BOOTSTRAP_LEDGER = `CREATE TABLE IF NOT EXISTS cerebro_bootstrap (
  name TEXT PRIMARY KEY,
  done_at TEXT NOT NULL
)`;

/** Runs `work` on one connection holding the migration lock (waiting for it while another host holds it). */
export async function withMigrationLock<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${LOCK_KEY})`);
    try {
      return await work(client);
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`);
    }
  } finally {
    client.release();
  }
}

/** Verifies, then applies each pending migration of `set` in its own transaction with its ledger row. Caller holds the lock. */
async function applyLocked(client: PoolClient, set: MigrationSet, now: () => Date): Promise<string[]> {
  // Two hosts may both create the ledger on a fresh database; the lock makes them take turns, IF NOT EXISTS does the rest.
  await client.query(LEDGER);
  const applied = (
    await client.query<{ id: string; checksum: string }>(
      'SELECT id, checksum FROM cerebro_migrations WHERE owner = $1 ORDER BY id COLLATE "C"',
      [set.owner],
    )
  ).rows;
  const pending = pendingMigrations(set, applied);
  for (const migration of pending) {
    try {
      await client.query('BEGIN');
      await client.query(migration.sql);
      await client.query('INSERT INTO cerebro_migrations (owner, id, checksum, applied_at) VALUES ($1, $2, $3, $4)', [
        set.owner,
        migration.id,
        migrationChecksum(migration.sql),
        now().toISOString(),
      ]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw new MigrationError(
        'MIGRATION_FAILED',
        set.owner,
        `la migración "${migration.id}" falló: ${(err as Error).message}`,
      );
    }
  }
  return pending.map((m) => m.id);
}

/** Applies what is pending of each set, in order, under the migration lock. Returns the ids applied per owner. */
export async function applyPgMigrations(
  pool: Pool,
  sets: readonly MigrationSet[],
  now: () => Date = () => new Date(),
): Promise<Record<string, string[]>> {
  return withMigrationLock(pool, async (client) => {
    const applied: Record<string, string[]> = {};
    for (const set of sets) applied[set.owner] = await applyLocked(client, set, now);
    return applied;
  });
}

/**
 * Runs a first-start step once per database, whatever the number of hosts starting together: under the migration
 * lock, in one transaction with its ledger row, so a host that dies half-way leaves nothing done and the next start
 * does it. Returns whether this call ran it.
 */
export async function bootstrapOnce(
  pool: Pool,
  name: string,
  work: (client: PoolClient) => Promise<void>,
  now: () => Date = () => new Date(),
): Promise<boolean> {
  return withMigrationLock(pool, async (client) => {
    await client.query(BOOTSTRAP_LEDGER);
    const done = await client.query('SELECT 1 FROM cerebro_bootstrap WHERE name = $1', [name]);
    if (done.rowCount) return false;
    try {
      await client.query('BEGIN');
      // Repositories the step calls through `inTransaction`/`pgQuery` write in this transaction: all or nothing.
      await joinedTo(pool, client, () => work(client));
      await client.query('INSERT INTO cerebro_bootstrap (name, done_at) VALUES ($1, $2)', [name, now().toISOString()]);
      await client.query('COMMIT');
      return true;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  });
}
