import 'reflect-metadata';
import { creditLedgerRepositoryContract } from '../port/credit-ledger-repository.contract.js';
import { SqliteCreditLedgerRepository } from './credit-ledger-repository.js';
import { migratedSqliteFile, seedAccount } from './migrated-sqlite-file.js';

creditLedgerRepositoryContract('SQLite', async () => {
  const file = migratedSqliteFile();
  return {
    repo: new SqliteCreditLedgerRepository(file.db),
    other: new SqliteCreditLedgerRepository(file.connect()),
    openAccount: async (credits) => seedAccount(file.db, credits),
    close: file.close,
  };
});
