// A plugin's own error codes: declared in its manifest, raised through the sdk, answered with their status and
// `codigo`, listed in the OpenAPI document beside the host's; a code the host or another plugin has is refused at
// load, naming the plugin.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defineErrors, definePlugin, ERROR_CATALOGUE, type ErrorCatalogue } from '@cerebro/sdk';
import { startTestHost } from '@cerebro/sdk/testing';
import { startExpectingError } from './support/start-refusal.js';

const CupoErrors = defineErrors({ cupo_agotado: { status: 409, detail: 'No quedan plazas en este turno.' } });

function plugin(id: string, errors: ErrorCatalogue) {
  return definePlugin({
    manifest: {
      id,
      version: '1.0.0',
      sdk: '^1.0.0',
      title: id,
      errors,
      routes: [
        { id: 'reservar', method: 'POST', path: '/reservas', permission: 'escribe', summary: 'Reserva', body: 'none' },
      ],
    },
    setup: () => ({
      handlers: {
        reservar: () => {
          throw CupoErrors.error('cupo_agotado');
        },
      },
    }),
  });
}

test("a plugin's own code reaches the client with its status and codigo, and the OpenAPI document lists it", async (t) => {
  const h = await startTestHost(t, { plugins: [plugin('turnos', CupoErrors.catalogue)] });
  const res = await h.client.post(`/mod/turnos/${h.spaceId}/reservas`);
  assert.deepEqual(
    [res.status, res.body],
    [409, { detail: 'No quedan plazas en este turno.', codigo: 'cupo_agotado' }],
  );
  const doc = (await h.client.get('/openapi.json', { key: null })).body as {
    components: { schemas: { Error: { properties: { codigo: { enum: string[] } } } } };
  };
  assert.deepEqual(doc.components.schemas.Error.properties.codigo.enum, [
    ...Object.keys(ERROR_CATALOGUE),
    'cupo_agotado',
  ]);
});

test("a code of the host's catalogue, or one another plugin declares, is refused at load naming the plugin", async () => {
  const host = await startExpectingError([plugin('turnos', { not_found: { status: 404, detail: 'No está.' } })]);
  assert.equal(host.code, 'PLUGIN_ERROR_CODE_CLASH');
  assert.match(host.message, /plugin "turnos": el código de error "not_found" ya es del host/);

  const other = await startExpectingError([
    plugin('turnos', CupoErrors.catalogue),
    plugin('citas', CupoErrors.catalogue),
  ]);
  assert.equal(other.code, 'PLUGIN_ERROR_CODE_CLASH');
  assert.match(other.message, /plugin "citas": el código de error "cupo_agotado" ya lo declara el plugin "turnos"/);
});

test('a malformed code, a status that is not an error or a missing text is refused', async () => {
  for (const [errors, message] of [
    [{ 'Cupo-Agotado': { status: 409, detail: 'x' } }, /minúsculas y cifras/],
    [{ cupo_agotado: { status: 200, detail: 'x' } }, /400 a 599/],
    [{ cupo_agotado: { status: 409, detail: '' } }, /falta detail/],
  ] as const) {
    const err = await startExpectingError([plugin('turnos', errors as ErrorCatalogue)]);
    assert.equal(err.code, 'PLUGIN_MANIFEST_INVALID');
    assert.match(err.message, message);
  }
});
