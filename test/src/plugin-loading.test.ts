import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createToken, definePlugin, HostServices } from '@cerebro/sdk';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { echoPlugin } from './support/plugins.js';
import { startExpectingError } from './support/start-refusal.js';

/** `/api/health` with its details, which only the operator credential sees. */
const operatorHealth = async (h: TestHost) =>
  h.client.get('/health', { key: (await h.admin.issueOperatorCredential('ops')).token });

test('a valid plugin is mounted under /api/mod/<id>/{espacio} and answers through the pipeline', async (t) => {
  const h = await startTestHost(t, { plugins: [echoPlugin()] });
  const res = await h.client.get(`/mod/eco/${h.spaceId}/eco?x=1&no_declarado=2`);
  assert.equal(res.status, 200);
  assert.deepEqual(
    res.body,
    { espacio: h.spaceId, permiso: 'escribe', query: { x: '1' } },
    'only the declared query parameters reach the handler',
  );
  assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  const health = await operatorHealth(h);
  assert.deepEqual(health.body.plugins, [{ id: 'eco', version: '1.0.0', estado: 'activo' }]);
});

test('a route whose body or query schema does not compile refuses start with PLUGIN_MANIFEST_INVALID naming it', async () => {
  const badBody = await startExpectingError([
    echoPlugin({
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
    }),
  ]);
  assert.equal(badBody.code, 'PLUGIN_MANIFEST_INVALID');
  assert.match(badBody.message, /ruta escribir: requestSchema no es un JSON Schema válido/);
  const badQuery = await startExpectingError([
    echoPlugin({
      routes: [
        {
          id: 'leer',
          method: 'GET',
          path: '/eco',
          permission: 'lee',
          summary: 's',
          query: { properties: {} } as never,
        },
      ],
    }),
  ]);
  assert.match(badQuery.message, /ruta leer: query debe ser un JSON Schema/);
});

test('a plugin id whose table prefix is a host table prefix refuses start with PLUGIN_MANIFEST_INVALID', async () => {
  const err = await startExpectingError([echoPlugin({ id: 'space' })]);
  assert.equal(err.code, 'PLUGIN_MANIFEST_INVALID');
  assert.equal(err.plugin, 'space');
  assert.match(err.message, /reservado por el host.*space_modules/);
});

test('two plugins with the same id refuse start with PLUGIN_DUPLICATE_ID naming the plugin', async () => {
  const err = await startExpectingError([echoPlugin(), echoPlugin()]);
  assert.equal(err.code, 'PLUGIN_DUPLICATE_ID');
  assert.equal(err.plugin, 'eco');
  assert.match(err.message, /plugin "eco"/);
});

test('two routes of one plugin with the same method and shape refuse start with PLUGIN_ROUTE_COLLISION', async () => {
  const err = await startExpectingError([
    echoPlugin(
      {
        routes: [
          { id: 'a', method: 'GET', path: '/cosas/:id', permission: 'lee', summary: 'a' },
          { id: 'b', method: 'GET', path: '/cosas/:nombre', permission: 'lee', summary: 'b' },
        ],
      },
      { a: () => 1, b: () => 2 },
    ),
  ]);
  assert.equal(err.code, 'PLUGIN_ROUTE_COLLISION');
  assert.match(err.message, /"a" y "b"/);
});

test('a plugin needing an sdk range this host does not meet refuses start with PLUGIN_SDK_RANGE', async () => {
  const err = await startExpectingError([echoPlugin({ sdk: '^3.0.0' })]);
  assert.equal(err.code, 'PLUGIN_SDK_RANGE');
  assert.match(err.message, /\^3\.0\.0/);
});

test('a plugin asking for a service the host does not offer refuses start with PLUGIN_UNKNOWN_SERVICE', async () => {
  const err = await startExpectingError([echoPlugin({ needs: [createToken<unknown>('host:teletransporte')] })]);
  assert.equal(err.code, 'PLUGIN_UNKNOWN_SERVICE');
  assert.match(err.message, /host:teletransporte/);
});

test('a required service no plugin provides refuses start with PLUGIN_DEPENDENCY_MISSING', async () => {
  const err = await startExpectingError([echoPlugin({ uses: [{ token: createToken<unknown>('otro:servicio') }] })]);
  assert.equal(err.code, 'PLUGIN_DEPENDENCY_MISSING');
});

test('a plugin whose setup throws is left disabled; the host and the other plugins keep serving', async (t) => {
  const broken = definePlugin({
    manifest: {
      id: 'roto',
      version: '1.0.0',
      sdk: '^1.0.0',
      title: 'Roto',
      routes: [{ id: 'x', method: 'GET', path: '/x', permission: 'lee', summary: 'x' }],
    },
    setup: () => {
      throw new Error('sin configuración');
    },
  });
  const h = await startTestHost(t, { plugins: [broken, echoPlugin()] });
  const health = await operatorHealth(h);
  const roto = health.body.plugins.find((p: { id: string }) => p.id === 'roto');
  assert.equal(roto.estado, 'fallido');
  assert.match(roto.error, /PLUGIN_INIT_FAILED.*sin configuración/);
  assert.equal((await h.client.get(`/mod/eco/${h.spaceId}/eco`)).status, 200);
  const res = await h.client.get(`/mod/roto/${h.spaceId}/x`);
  assert.equal(res.status, 503);
  assert.match(res.body.detail, /roto/);
});

test('a plugin whose setup never finishes is disabled at its deadline, naming it', async (t) => {
  const hanging = definePlugin({
    manifest: { id: 'lento', version: '1.0.0', sdk: '^1.0.0', title: 'Lento', routes: [] },
    setup: () => new Promise<never>(() => {}),
  });
  const h = await startTestHost(t, { plugins: [hanging], env: { CEREBRO_PLUGIN_INIT_TIMEOUT_MS: '200' } });
  const health = await operatorHealth(h);
  assert.match(health.body.plugins[0].error, /PLUGIN_INIT_TIMEOUT.*"lento"/);
});

test('a plugin container holds only what its manifest asked for', async (t) => {
  let seen: { storage: boolean; clock: boolean; error?: string } | undefined;
  const nosy = definePlugin({
    manifest: {
      id: 'curioso',
      version: '1.0.0',
      sdk: '^1.0.0',
      title: 'Curioso',
      routes: [],
      needs: [HostServices.Clock],
    },
    setup(scope) {
      seen = {
        storage: scope.container.isRegistered(HostServices.Storage, true),
        clock: typeof scope.resolve(HostServices.Clock).now() === 'number',
      };
      try {
        scope.resolve(HostServices.Storage);
      } catch (err) {
        seen.error = (err as Error).message;
      }
      return { handlers: {} };
    },
  });
  await startTestHost(t, { plugins: [nosy] });
  assert.equal(seen?.storage, false);
  assert.equal(seen?.clock, true);
  assert.match(seen?.error ?? '', /curioso.*host:storage/);
});

test('a service one plugin provides reaches the plugin that uses it; an optional absent one arrives as null', async (t) => {
  const Greeting = createToken<{ hello(name: string): string }>('saludos:saludo');
  const provider = definePlugin({
    manifest: { id: 'saludos', version: '1.0.0', sdk: '^1.0.0', title: 'Saludos', routes: [], provides: [Greeting] },
    setup(scope) {
      scope.container.register(Greeting, { useValue: { hello: (n: string) => `hola ${n}` } });
      return { handlers: {} };
    },
  });
  const Missing = createToken<unknown>('nadie:servicio');
  const consumer = definePlugin({
    manifest: {
      id: 'cliente',
      version: '1.0.0',
      sdk: '^1.0.0',
      title: 'Cliente',
      uses: [{ token: Greeting }, { token: Missing, optional: true }],
      routes: [{ id: 'x', method: 'GET', path: '/x', permission: 'lee', summary: 'x' }],
    },
    setup(scope) {
      const greeting = scope.resolve(Greeting);
      const missing = scope.resolve(Missing);
      return { handlers: { x: () => ({ saludo: greeting.hello('mundo'), ausente: missing }) } };
    },
  });
  // Declared consumer first: the host orders providers before consumers.
  const h = await startTestHost(t, { plugins: [consumer, provider] });
  const res = await h.client.get(`/mod/cliente/${h.spaceId}/x`);
  assert.deepEqual(res.body, { saludo: 'hola mundo', ausente: null });
});

test('a plugin that declares routes without handlers is disabled with PLUGIN_HANDLERS_MISMATCH', async (t) => {
  const h = await startTestHost(t, { plugins: [echoPlugin({}, { leer: () => 1 })] });
  const health = await operatorHealth(h);
  assert.match(health.body.plugins[0].error, /PLUGIN_HANDLERS_MISMATCH.*escribir/);
});

test('a plugin can report its own state in /api/health; a failing status hook does not break health', async (t) => {
  const withStatus = definePlugin({
    manifest: { id: 'motor', version: '1.0.0', sdk: '^1.0.0', title: 'Motor', routes: [] },
    setup: () => ({ handlers: {}, status: () => ({ motor: 'listo', cola: 0 }) }),
  });
  const broken = definePlugin({
    manifest: { id: 'averiado', version: '1.0.0', sdk: '^1.0.0', title: 'Averiado', routes: [] },
    setup: () => ({
      handlers: {},
      status: () => {
        throw new Error('sin datos');
      },
    }),
  });
  const h = await startTestHost(t, { plugins: [withStatus, broken] });
  const plugins = (await operatorHealth(h)).body.plugins;
  assert.deepEqual(plugins.find((p: { id: string }) => p.id === 'motor').detalle, { motor: 'listo', cola: 0 });
  assert.deepEqual(plugins.find((p: { id: string }) => p.id === 'averiado').detalle, { error: 'sin datos' });
});
