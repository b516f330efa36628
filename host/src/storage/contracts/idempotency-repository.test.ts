import 'reflect-metadata';
import { idempotencyRepositoryContract } from '../port/idempotency-repository.contract.js';
import { PgCreditLedgerRepository } from '../postgres/pg-credit-ledger.js';
import { PgIdempotencyRepository } from '../postgres/pg-idempotency-repository.js';
import { seedPgAccount } from '../postgres/testing/migrated-pg-database.js';
import { openMigratedTestDatabase } from '../sqlite/access-fixture.js';
import { SqliteCreditLedgerRepository } from '../sqlite/credit-ledger-repository.js';
import { SqliteIdempotencyRepository } from '../sqlite/idempotency-repository.js';
import { seedAccount } from '../sqlite/migrated-sqlite-file.js';
import { onEachBackend } from './each-backend.js';

await onEachBackend(idempotencyRepositoryContract, {
  async sqlite() {
    const { db, close } = openMigratedTestDatabase();
    return {
      repo: new SqliteIdempotencyRepository(db),
      ledger: new SqliteCreditLedgerRepository(db),
      openAccount: async (credits) => seedAccount(db, credits),
      close,
    };
  },
  async postgres({ pool }) {
    return {
      repo: new PgIdempotencyRepository(pool),
      ledger: new PgCreditLedgerRepository(pool),
      openAccount: (credits) => seedPgAccount(pool, credits),
      close: async () => undefined,
    };
  },
});
