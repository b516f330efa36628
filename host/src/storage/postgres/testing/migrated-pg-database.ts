// A PostgreSQL database with the host's migrations applied, fresh for each contract case. Migrating 16 migrations per
// case would dominate the tests' time, so the first call of a test process migrates a template database once and
// every case clones it (CREATE DATABASE … TEMPLATE, a file copy on the server). `dropMigratedTemplate` removes the
// template: call it from the test file's `after`.
import { randomBytes } from 'node:crypto';
import { createMigratedDatabase, databaseUrlOn } from '../../../test-kit/migrated-template.js';
import { createPgPool, type Pool } from '../pg-driver.js';
import { TEST_SERVER_URL } from './pg-test-database.js';

export interface MigratedPgDatabase {
  url: string;
  pool: Pool;
  /** Another pool on the same database: another process's view. */
  connect(): Promise<Pool>;
  /** Closes every pool and drops the database. */
  close(): Promise<void>;
}

let template: Promise<string> | undefined;

const databaseUrl = (name: string): string => databaseUrlOn(TEST_SERVER_URL, name);

async function onServer<T>(work: (admin: Pool) => Promise<T>): Promise<T> {
  const admin = await createPgPool(TEST_SERVER_URL, { max: 1 });
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

async function migratedTemplate(): Promise<string> {
  const name = `cerebro_tpl_${randomBytes(6).toString('hex')}`;
  await createMigratedDatabase(TEST_SERVER_URL, name);
  return name;
}

/** A fresh database holding the host's migrated schema and nothing else. */
export async function migratedPgDatabase(poolSize = 5): Promise<MigratedPgDatabase> {
  template ??= migratedTemplate();
  const from = await template;
  const name = `cerebro_t_${randomBytes(6).toString('hex')}`;
  await onServer((admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${from}`));
  const url = databaseUrl(name);
  const pools = [await createPgPool(url, { max: poolSize })];
  return {
    url,
    pool: pools[0]!,
    async connect() {
      const pool = await createPgPool(url, { max: poolSize });
      pools.push(pool);
      return pool;
    },
    async close() {
      await Promise.all(pools.map((p) => p.end()));
      await onServer((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** Drops this process's template, if one was made. */
export async function dropMigratedTemplate(): Promise<void> {
  if (!template) return;
  const name = await template.catch(() => null);
  template = undefined;
  if (name) await onServer((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** An owner and their account holding `credits`, as the directory stores them; returns the account's id. */
export async function seedPgAccount(pool: Pool, credits = 0): Promise<string> {
  const suffix = randomBytes(8).toString('hex');
  const at = new Date().toISOString();
  await pool.query('INSERT INTO owners (id, name, created_at) VALUES ($1, $2, $3)', [`own_${suffix}`, 'Prueba', at]);
  await pool.query('INSERT INTO accounts (id, owner_id, credits, created_at) VALUES ($1, $2, $3, $4)', [
    `cta_${suffix}`,
    `own_${suffix}`,
    credits,
    at,
  ]);
  return `cta_${suffix}`;
}

/** A space billed to `accountId` (a new account when not given); returns the space's id. */
export async function seedPgSpace(pool: Pool, accountId?: string): Promise<string> {
  const account = accountId ?? (await seedPgAccount(pool));
  const space = `esp-${randomBytes(8).toString('hex')}`;
  await pool.query(
    `INSERT INTO spaces (id, name, owner_id, account_id, created_at)
     SELECT $1, $1, owner_id, id, $2 FROM accounts WHERE id = $3`,
    [space, new Date().toISOString(), account],
  );
  return space;
}

/** A document of the engine's table as the indexing queue stores it; returns its id. */
export async function seedPgDocument(
  pool: Pool,
  space: string,
  doc: { name?: string; state?: 'queued' | 'processing' | 'ready' | 'failed'; passages?: number; createdAt?: string },
): Promise<string> {
  const id = randomBytes(12).toString('hex');
  const at = doc.createdAt ?? new Date().toISOString();
  await pool.query(
    `INSERT INTO cerebro_documents (space, id, name, media_type, path, state, passages, created_at, updated_at, queued_at)
     VALUES ($1, $2, $3, 'text/plain', $4, $5, $6, $7, $7, $7)`,
    [space, id, doc.name ?? `${id}.txt`, `${id}.txt`, doc.state ?? 'ready', doc.passages ?? 0, at],
  );
  return id;
}
