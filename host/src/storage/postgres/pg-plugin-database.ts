// The sdk's async `PluginDatabase` on PostgreSQL, over a pool connected as the plugin's own role (whose search_path
// is its own schema: pg-plugin-schemas.ts). Unlike the SQLite file's single connection, the pool gives a
// transaction a connection of its own, so statements outside it run beside it (and never see its writes) instead of
// queueing behind it. The contract is the same: storage/port/plugin-database.contract.ts.
import { type ExecuteResult, type PluginDatabase, SqlMisuseError, type SqlSession, type SqlValue } from '@cerebro/sdk';
import { ScopedAsyncStorage } from '../../kernel/scoped-async-storage.js';
import { inTransaction, type Pool, type PoolClient } from './pg-driver.js';
import { toPostgresPlaceholders } from './portable-sql.js';

/** Distinct statement texts kept translated; plugins use fixed SQL, so this bound only stops runaway growth. */
const MAX_TRANSLATED = 512;

interface OpenTransaction {
  active: boolean;
}

export class PgPluginDatabase implements PluginDatabase {
  private readonly translated = new Map<string, string>();
  private readonly current = new ScopedAsyncStorage<OpenTransaction>();

  constructor(
    private readonly pool: Pool,
    readonly tablePrefix: string,
  ) {}

  async query<Row = Record<string, unknown>>(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    this.refuseInsideTransaction();
    return this.rows<Row>(this.pool, sql, params);
  }

  async queryOne<Row = Record<string, unknown>>(
    sql: string,
    params: readonly SqlValue[] = [],
  ): Promise<Row | undefined> {
    return (await this.query<Row>(sql, params))[0];
  }

  async execute(sql: string, params: readonly SqlValue[] = []): Promise<ExecuteResult> {
    this.refuseInsideTransaction();
    return this.changes(this.pool, sql, params);
  }

  async transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    this.refuseInsideTransaction();
    const open: OpenTransaction = { active: true };
    try {
      return await inTransaction(this.pool, (client) => this.current.run(open, () => work(this.session(client, open))));
    } finally {
      open.active = false;
    }
  }

  /** The callback's statements, on the transaction's connection, only while it is open. */
  private session(client: PoolClient, open: OpenTransaction): SqlSession {
    const usable = (): void => {
      if (!open.active) throw new SqlMisuseError('La transacción ya terminó: este tx no admite más sentencias.');
    };
    return {
      query: async <Row>(sql: string, params: readonly SqlValue[] = []) => {
        usable();
        return this.rows<Row>(client, sql, params);
      },
      queryOne: async <Row>(sql: string, params: readonly SqlValue[] = []) => {
        usable();
        return (await this.rows<Row>(client, sql, params))[0];
      },
      execute: async (sql: string, params: readonly SqlValue[] = []) => {
        usable();
        return this.changes(client, sql, params);
      },
    };
  }

  private async rows<Row>(db: Pool | PoolClient, sql: string, params: readonly SqlValue[]): Promise<Row[]> {
    return (await db.query(this.translate(sql), params as unknown[])).rows as Row[];
  }

  private async changes(db: Pool | PoolClient, sql: string, params: readonly SqlValue[]): Promise<ExecuteResult> {
    return { changes: (await db.query(this.translate(sql), params as unknown[])).rowCount ?? 0 };
  }

  private refuseInsideTransaction(): void {
    if (this.current.getStore()?.active) {
      throw new SqlMisuseError(
        'Dentro de transaction(), las sentencias van por el tx que recibe la función, no por la base de datos.',
      );
    }
  }

  private translate(sql: string): string {
    let text = this.translated.get(sql);
    if (text === undefined) {
      if (this.translated.size >= MAX_TRANSLATED) this.translated.clear();
      text = toPostgresPlaceholders(sql);
      this.translated.set(sql, text);
    }
    return text;
  }
}
