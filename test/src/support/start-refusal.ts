import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PluginDefinition } from '@cerebro/sdk';
import { startHost, type PluginError } from '@cerebro/host';

/** Starts a host with `plugins` on a fresh data folder, expecting the start to be refused; the error it gave. */
export async function startExpectingError(plugins: PluginDefinition[]): Promise<PluginError> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-load-'));
  try {
    await startHost({ config: { dataDir, port: 0, discoverPlugins: false, logLevel: 'silent' }, plugins });
  } catch (err) {
    return err as PluginError;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  assert.fail('the host started although the plugin set is invalid');
}
