import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type SqliteDatabase } from '../database.js';
import { applyMigrations } from '../migrator.js';
import { HOST_MIGRATIONS } from '../migrations/index.js';

/**
 * A host database file with every migration applied, in a temporary folder, for the repositories' contract tests.
 * A file (not `:memory:`) so a second connection can share it, as a second process would.
 */
export interface MigratedSqliteFile {
  db: SqliteDatabase;
  /** Another connection to the same file. */
  connect(): SqliteDatabase;
  /** Closes every connection and removes the folder. */
  close(): Promise<void>;
}

export function migratedSqliteFile(): MigratedSqliteFile {
  const dir = mkdtempSync(join(tmpdir(), 'cerebro-repo-'));
  const file = join(dir, 'cerebro.db');
  const db = openDatabase(file);
  applyMigrations(db, { owner: 'host', migrations: HOST_MIGRATIONS });
  const connections = [db];
  return {
    db,
    connect() {
      const other = openDatabase(file);
      connections.push(other);
      return other;
    },
    async close() {
      for (const c of connections) c.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An owner and their account holding `credits`, as the directory stores them; returns the account's id. */
export function seedAccount(db: SqliteDatabase, credits = 0): string {
  const owner = `own_${randomUUID()}`;
  const account = `cta_${randomUUID()}`;
  const at = new Date().toISOString();
  db.prepare('INSERT INTO owners (id, name, created_at) VALUES (?, ?, ?)').run(owner, 'Prueba', at);
  db.prepare('INSERT INTO accounts (id, owner_id, credits, created_at) VALUES (?, ?, ?, ?)').run(
    account,
    owner,
    credits,
    at,
  );
  return account;
}

/** A space billed to `accountId` (a new account when not given); returns the space's id. */
export function seedSpace(db: SqliteDatabase, accountId = seedAccount(db)): string {
  const space = `esp-${randomUUID()}`;
  const owner = db.prepare<[string], { owner_id: string }>('SELECT owner_id FROM accounts WHERE id = ?').get(accountId);
  db.prepare('INSERT INTO spaces (id, name, owner_id, account_id, created_at) VALUES (?, ?, ?, ?, ?)').run(
    space,
    space,
    owner?.owner_id ?? null,
    accountId,
    new Date().toISOString(),
  );
  return space;
}

/** A document of the engine's table as the indexing queue stores it; returns its id. */
export function seedDocument(
  db: SqliteDatabase,
  space: string,
  doc: {
    name?: string;
    state?: 'queued' | 'processing' | 'ready' | 'failed';
    passages?: number;
    createdAt?: string;
  } = {},
): string {
  const id = randomUUID();
  const at = doc.createdAt ?? new Date().toISOString();
  db.prepare(
    `INSERT INTO cerebro_documents (space, id, name, media_type, path, state, passages, created_at, updated_at, queued_at)
     VALUES (?, ?, ?, 'text/plain', ?, ?, ?, ?, ?, ?)`,
  ).run(space, id, doc.name ?? `${id}.txt`, `${id}.txt`, doc.state ?? 'ready', doc.passages ?? 0, at, at, at);
  return id;
}
