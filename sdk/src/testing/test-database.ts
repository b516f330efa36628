import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Migration } from '../manifest.js';
import type { PluginDatabase } from '../services/database.js';
import { importHost, type Cleanup } from './import-host.js';

export interface TestDatabaseOptions {
  /** The plugin's id: its table prefix and the owner of its migrations. */
  pluginId: string;
  /** The manifest's migrations, applied as the host applies them (prefix checked). */
  migrations?: readonly Migration[];
  /** Open this file instead of a new one: a second handle on one file acts as a second process sharing it. */
  file?: string;
}

export interface TestDatabase {
  /** What the plugin gets as `HostServices.Database`, on a file of its own. */
  db: PluginDatabase;
  file: string;
  close(): Promise<void>;
}

/**
 * The plugin's database without a running host, for tests of a plugin's stores: the same implementation and
 * migrations the host uses, on a temporary file removed when `t` ends.
 * @example
 * const { db } = await openTestDatabase(t, { pluginId: 'hola', migrations: hola.manifest.migrations });
 */
export async function openTestDatabase(t: Cleanup | undefined, options: TestDatabaseOptions): Promise<TestDatabase> {
  const { openPluginDatabase } = await importHost();
  const dir = options.file ? null : await mkdtemp(join(tmpdir(), 'cerebro-db-'));
  const file = options.file ?? join(dir as string, `${options.pluginId}.db`);
  const opened = openPluginDatabase(file, options.pluginId, options.migrations ?? []);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    opened.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  };
  t?.after(close);
  return { db: opened.db, file, close };
}
