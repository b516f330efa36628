import { createHash } from 'node:crypto';
import type { Migration } from '@cerebro/sdk';
import type { SqliteDatabase } from './database.js';

export type MigrationErrorCode =
  | 'MIGRATION_TAMPERED'
  | 'DATABASE_NEWER_THAN_CODE'
  | 'MIGRATION_ORDER'
  | 'MIGRATION_NAMESPACE'
  | 'MIGRATION_FAILED';

export class MigrationError extends Error {
  constructor(
    readonly code: MigrationErrorCode,
    readonly owner: string,
    message: string,
  ) {
    super(`[${code}] ${owner}: ${message}`);
    this.name = 'MigrationError';
  }
}

/** The migrations of one owner: `host` or a plugin id. */
export interface MigrationSet {
  owner: string;
  migrations: readonly Migration[];
  /** When set, every object the migrations create, alter or drop must start with it. */
  tablePrefix?: string;
}

/** The migration ledger; plain SQL types, the same table on SQLite and PostgreSQL. */
export const LEDGER = `CREATE TABLE IF NOT EXISTS cerebro_migrations (
  owner TEXT NOT NULL,
  id TEXT NOT NULL,
  checksum TEXT NOT NULL,
  applied_at TEXT NOT NULL,
  PRIMARY KEY (owner, id)
)`;

/** Creates the migration ledger of a database file if it has none yet. */
export const ensureLedger = (db: SqliteDatabase): void => void db.exec(LEDGER);

export const migrationChecksum = (sql: string): string =>
  createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');

const OBJECT_NAME =
  /\b(?:CREATE\s+(?:UNIQUE\s+|VIRTUAL\s+|TEMP\s+|TEMPORARY\s+)*(?:TABLE|INDEX|TRIGGER|VIEW)(?:\s+IF\s+NOT\s+EXISTS)?|ALTER\s+TABLE|DROP\s+(?:TABLE|INDEX|TRIGGER|VIEW)(?:\s+IF\s+EXISTS)?)\s+["`[]?([A-Za-z_][\w$]*)/gi;

/** Names of the objects a migration creates, alters or drops. */
export function touchedObjects(sql: string): string[] {
  const withoutComments = sql.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
  return [...withoutComments.matchAll(OBJECT_NAME)].map((m) => m[1]!);
}

/** Refuses what must never run: out-of-order ids and objects outside the owner's namespace. */
function checkDeclared(set: MigrationSet): void {
  const ids = set.migrations.map((m) => m.id);
  for (let i = 1; i < ids.length; i++) {
    if (ids[i]! <= ids[i - 1]!) {
      throw new MigrationError(
        'MIGRATION_ORDER',
        set.owner,
        `las migraciones deben tener ids únicos y crecientes ("${ids[i - 1]}" antes de "${ids[i]}").`,
      );
    }
  }
  if (set.tablePrefix) {
    for (const m of set.migrations) {
      const foreign = touchedObjects(m.sql).filter((name) => !name.toLowerCase().startsWith(set.tablePrefix!));
      if (foreign.length > 0) {
        throw new MigrationError(
          'MIGRATION_NAMESPACE',
          set.owner,
          `la migración ${m.id} toca objetos fuera de su prefijo "${set.tablePrefix}": ${foreign.join(', ')}.`,
        );
      }
    }
  }
}

/**
 * Compares what the database has applied with what the code declares, and refuses to go on when they disagree:
 * an applied migration the code does not know means the database is newer than the code; a checksum mismatch
 * means a migration was edited after it was applied. Nothing is changed when this throws.
 */
export function verifyMigrations(db: SqliteDatabase, set: MigrationSet): Migration[] {
  checkDeclared(set);
  ensureLedger(db);
  const applied = db
    .prepare('SELECT id, checksum FROM cerebro_migrations WHERE owner = ? ORDER BY id')
    .all(set.owner) as AppliedMigration[];
  return pendingMigrations(set, applied);
}

/** A row of a migration ledger: what was applied, and the checksum of its text then. */
export interface AppliedMigration {
  id: string;
  checksum: string;
}

/**
 * The migrations still to apply, given the ledger's rows (ordered by id), under the rules of `verifyMigrations`; the
 * same rules for every backend (the PostgreSQL runner reads its ledger and calls this).
 */
export function pendingMigrations(set: MigrationSet, applied: readonly AppliedMigration[]): Migration[] {
  checkDeclared(set);
  const declared = new Map(set.migrations.map((m) => [m.id, m]));
  for (const row of applied) {
    const migration = declared.get(row.id);
    if (!migration) {
      throw new MigrationError(
        'DATABASE_NEWER_THAN_CODE',
        set.owner,
        `la base de datos tiene aplicada la migración "${row.id}", que este código no conoce: la base de datos es más nueva que el código. Actualiza Cerebro o usa una copia de la base de datos anterior.`,
      );
    }
    if (migrationChecksum(migration.sql) !== row.checksum) {
      throw new MigrationError(
        'MIGRATION_TAMPERED',
        set.owner,
        `la migración "${row.id}" ha cambiado después de aplicarse. Las migraciones publicadas no se editan: añade una nueva.`,
      );
    }
  }
  const appliedIds = new Set(applied.map((r) => r.id));
  const pending = set.migrations.filter((m) => !appliedIds.has(m.id));
  const lastApplied = applied.at(-1)?.id;
  const early = lastApplied ? pending.find((m) => m.id < lastApplied) : undefined;
  if (early) {
    throw new MigrationError(
      'MIGRATION_ORDER',
      set.owner,
      `la migración "${early.id}" es anterior a "${lastApplied}", ya aplicada.`,
    );
  }
  return pending;
}

/**
 * Verifies, then applies each pending migration in its own transaction together with its ledger row. Returns the ids
 * this call applied.
 *
 * Several processes may open one new database file at once (hosts sharing a data folder, a CLI beside the server):
 * each transaction takes the write lock first (IMMEDIATE) and reads the ledger again under it, so a migration another
 * process applied since the ledger was first read is skipped instead of failing on its "table already exists".
 */
export function applyMigrations(db: SqliteDatabase, set: MigrationSet, now: () => Date = () => new Date()): string[] {
  const pending = verifyMigrations(db, set);
  const appliedBefore = db.prepare<[string, string], { checksum: string }>(
    'SELECT checksum FROM cerebro_migrations WHERE owner = ? AND id = ?',
  );
  const record = db.prepare('INSERT INTO cerebro_migrations (owner, id, checksum, applied_at) VALUES (?, ?, ?, ?)');
  const applied: string[] = [];
  for (const migration of pending) {
    const checksum = migrationChecksum(migration.sql);
    const apply = db.transaction((): boolean => {
      const other = appliedBefore.get(set.owner, migration.id);
      if (other) {
        if (other.checksum === checksum) return false;
        throw new MigrationError(
          'MIGRATION_TAMPERED',
          set.owner,
          `otro proceso aplicó la migración "${migration.id}" con otro texto: los procesos que comparten la base de datos deben ejecutar la misma versión de Cerebro.`,
        );
      }
      db.exec(migration.sql);
      record.run(set.owner, migration.id, checksum, now().toISOString());
      return true;
    });
    let ran: boolean;
    try {
      ran = apply.immediate();
    } catch (err) {
      if (err instanceof MigrationError) throw err;
      throw new MigrationError(
        'MIGRATION_FAILED',
        set.owner,
        `la migración "${migration.id}" falló: ${(err as Error).message}`,
      );
    }
    if (ran) applied.push(migration.id);
  }
  return applied;
}
