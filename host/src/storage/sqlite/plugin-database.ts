// The sdk's async `PluginDatabase` over a plugin's SQLite file. better-sqlite3 is synchronous and has one
// connection per file, so an async transaction (BEGIN … awaits … COMMIT) would otherwise swallow every statement
// other requests run on that connection while the callback awaits. Instead, transactions take turns and statements
// issued while one is queued or open wait behind it, in the order issued; statements run inside the callback
// through the handle itself (instead of `tx`) are refused: they would wait for the transaction that waits for them.
import { SqlMisuseError, type ExecuteResult, type PluginDatabase, type SqlSession, type SqlValue } from '@cerebro/sdk';
import type Database from 'better-sqlite3';
import { ScopedAsyncStorage } from '../../kernel/scoped-async-storage.js';
import type { SqliteDatabase } from '../database.js';

/** Distinct statement texts kept prepared; plugins use fixed SQL, so this bound only stops runaway growth. */
const MAX_PREPARED = 512;

interface OpenTransaction {
  active: boolean;
}

export class SqlitePluginDatabase implements PluginDatabase {
  private readonly prepared = new Map<string, Database.Statement>();
  /** Settles when the last queued piece of work (a transaction, or a statement that waited) has ended. */
  private tail: Promise<void> = Promise.resolve();
  /** Queued or running work; a statement runs at once only when it is 0, else it queues behind (FIFO). */
  private pending = 0;
  private readonly current = new ScopedAsyncStorage<OpenTransaction>();

  constructor(
    private readonly db: SqliteDatabase,
    readonly tablePrefix: string,
  ) {}

  query<Row = Record<string, unknown>>(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return this.outside(() => this.statement(sql).all(...params) as Row[]);
  }

  queryOne<Row = Record<string, unknown>>(sql: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    return this.outside(() => this.statement(sql).get(...params) as Row | undefined);
  }

  execute(sql: string, params: readonly SqlValue[] = []): Promise<ExecuteResult> {
    return this.outside(() => ({ changes: this.statement(sql).run(...params).changes }));
  }

  async transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    this.refuseInsideTransaction();
    return this.enqueue(() => this.runTransaction(work));
  }

  private async runTransaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    const open: OpenTransaction = { active: true };
    const tx = this.session(open);
    // IMMEDIATE takes the write lock at the start, so two processes sharing the file never both hold a read lock
    // and then fail to upgrade it (SQLITE_BUSY without waiting).
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = await this.current.run(open, () => work(tx));
      open.active = false;
      this.db.exec('COMMIT');
      return result;
    } catch (err) {
      open.active = false;
      // Some errors (disk full, a failed COMMIT) already ended the transaction; rolling back again would throw.
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw err;
    }
  }

  /** The callback's statements: they run at once (the transaction holds the turn) and only while it is open. */
  private session(open: OpenTransaction): SqlSession {
    const usable = (): void => {
      if (!open.active) throw new SqlMisuseError('La transacción ya terminó: este tx no admite más sentencias.');
    };
    return {
      query: async <Row>(sql: string, params: readonly SqlValue[] = []) => {
        usable();
        return this.statement(sql).all(...params) as Row[];
      },
      queryOne: async <Row>(sql: string, params: readonly SqlValue[] = []) => {
        usable();
        return this.statement(sql).get(...params) as Row | undefined;
      },
      execute: async (sql: string, params: readonly SqlValue[] = []) => {
        usable();
        return { changes: this.statement(sql).run(...params).changes };
      },
    };
  }

  /**
   * A statement outside any transaction: at once when nothing is queued (the common case, no extra tick), else
   * behind what is, so statements and transactions run in the order they were issued.
   */
  private async outside<R>(run: () => R): Promise<R> {
    this.refuseInsideTransaction();
    return this.pending === 0 ? run() : this.enqueue(run);
  }

  /** Runs `work` after everything queued before it; `pending` drops the moment it ends. */
  private enqueue<R>(work: () => R | Promise<R>): Promise<R> {
    this.pending++;
    const result = this.tail.then(async () => {
      try {
        return await work();
      } finally {
        this.pending--;
      }
    });
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private refuseInsideTransaction(): void {
    if (this.current.getStore()?.active) {
      throw new SqlMisuseError(
        'Dentro de transaction(), las sentencias van por el tx que recibe la función, no por la base de datos.',
      );
    }
  }

  private statement(sql: string): Database.Statement {
    let statement = this.prepared.get(sql);
    if (!statement) {
      if (this.prepared.size >= MAX_PREPARED) this.prepared.clear();
      statement = this.db.prepare(sql);
      this.prepared.set(sql, statement);
    }
    return statement;
  }
}
