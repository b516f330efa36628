import type { Migration } from '../manifest.js';
import type { PluginDatabase } from '../services/database.js';

/** What the testing kit uses of `@cerebro/host`. */
export interface HostModule {
  startHost: (o: unknown) => Promise<any>;
  openPluginDatabase: (
    file: string,
    pluginId: string,
    migrations: readonly Migration[],
  ) => { db: PluginDatabase; close(): void };
}

/** The host is an optional peer of the sdk: only plugin tests need it. */
export async function importHost(): Promise<HostModule> {
  const specifier = '@cerebro/host'; // a variable, so the sdk does not need the host to compile
  try {
    return (await import(specifier)) as HostModule;
  } catch (err) {
    if (
      (err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' ||
      !String((err as Error).message).includes(`'${specifier}'`)
    )
      throw err;
    throw new Error(
      'El kit de pruebas arranca un Cerebro real: instala @cerebro/host como devDependency de tu plugin.',
    );
  }
}

/** What the testing kit uses of `@cerebro/host/test-kit`: a scratch PostgreSQL backend when the run asks for one. */
export interface HostTestKit {
  scratchBackend(): Promise<{ backend: string; env: Record<string, string>; close(): Promise<void> }>;
}

/** The backend of this test run, chosen by CEREBRO_TEST_BACKEND (`sqlite`, the default, or `postgres`). */
export async function scratchBackend(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  if ((process.env.CEREBRO_TEST_BACKEND ?? 'sqlite') === 'sqlite') return { env: {}, close: async () => {} };
  const specifier = '@cerebro/host/test-kit';
  const kit = (await import(specifier)) as HostTestKit;
  return kit.scratchBackend();
}

/** Anything with `after` (node:test's TestContext or SuiteContext) to close the host automatically. */
export interface Cleanup {
  after(fn: () => unknown): void;
}
