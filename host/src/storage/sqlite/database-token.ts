import { createToken } from '@cerebro/sdk';
import type { SqliteDatabase } from '../database.js';

/**
 * The host database's token: the very token `HostTokens.Database` is (a token is the registered symbol of its
 * name), declared here so the SQLite repositories import nothing of the kernel. The engine builds them on its own
 * (storage/sqlite/engine-storage.ts), and the kernel's tokens reach the engine through the host's configuration:
 * importing them here would close an import circle.
 */
export const SqliteDatabaseToken = createToken<SqliteDatabase>('host:database');
