import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PluginManifest } from '@cerebro/sdk';
import { validatePluginSet } from './manifest-validator.js';

/** A manifest whose one route has a body schema that does not compile. */
const withBrokenSchema = (id: string): PluginManifest => ({
  id,
  version: '1.0.0',
  sdk: '^1.0.0',
  title: id,
  routes: [
    {
      id: 'escribir',
      method: 'POST',
      path: '/eco',
      permission: 'escribe',
      summary: 's',
      requestSchema: { type: 'objeto' },
    },
  ],
});

test("a set's route schemas are compiled, except those of the plugins shipped with the host", () => {
  const outside = withBrokenSchema('ajeno');
  assert.throws(
    () => validatePluginSet([outside]),
    (err: Error & { code?: string }) =>
      err.code === 'PLUGIN_MANIFEST_INVALID' && /requestSchema no es un JSON Schema válido/.test(err.message),
  );
  const shipped = withBrokenSchema('propio');
  assert.doesNotThrow(() => validatePluginSet([shipped], new Set([shipped])));
  assert.throws(() => validatePluginSet([shipped, outside], new Set([shipped])), /ajeno|requestSchema/);
  // Everything but the compiling still applies to a shipped plugin.
  const badPath = { ...shipped, routes: [{ ...shipped.routes[0]!, path: 'sin-barra' }] };
  assert.throws(() => validatePluginSet([badPath], new Set([badPath])), /PLUGIN_MANIFEST_INVALID|ruta/);
});

test('two plugins with one id: the refusal names both folders when they are known', () => {
  const a = withBrokenSchema('doble');
  const b = withBrokenSchema('doble');
  const both = new Set([a, b]);
  assert.throws(
    () => validatePluginSet([a, b], both, ['/opt/cerebro/plugins/doble', '/home/ana/proyecto/plugins/doble']),
    (err: Error & { code?: string }) =>
      err.code === 'PLUGIN_DUPLICATE_ID' &&
      err.message.includes('uno en /opt/cerebro/plugins/doble y otro en /home/ana/proyecto/plugins/doble'),
  );
  // Plugins given in code have no folder: the refusal still names the id.
  assert.throws(() => validatePluginSet([a, b], both), /PLUGIN_DUPLICATE_ID\] plugin "doble": hay dos plugins/);
});
