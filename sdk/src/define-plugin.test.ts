// Compile-time checks of definePlugin's typing: each `@ts-expect-error` fails the build if the error it expects
// disappears (a typo that compiles again, a body that is `any` again); the run-time assertions check the value.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definePlugin, type RouteDeclaration } from './index.js';

const routes = [
  {
    id: 'saludo',
    method: 'GET',
    path: '/saludo',
    permission: 'lee',
    summary: 'Saluda',
    query: { type: 'object', properties: { veces: { type: 'integer', default: 1 } } },
  },
  {
    id: 'guardar',
    method: 'POST',
    path: '/saludos',
    permission: 'escribe',
    credits: 2,
    summary: 'Guarda',
    requestSchema: {
      type: 'object',
      required: ['texto'],
      additionalProperties: false,
      properties: { texto: { type: 'string' }, veces: { type: 'integer' } },
    },
  },
] as const satisfies readonly RouteDeclaration[];

test('handlers are typed by the manifest: route ids, request bodies, queries and pricing', () => {
  const plugin = definePlugin({
    manifest: { id: 'hola', version: '1.0.0', sdk: '^1.0.0', title: 'Hola', routes },
    setup: () => ({
      handlers: {
        saludo: (req) => {
          const veces: number = req.query.veces;
          // @ts-expect-error the route declares no query parameter "otro"
          const otro = req.query.otro;
          return { hola: req.space.id, veces, otro };
        },
        guardar: (req) => {
          const texto: string = req.body.texto;
          const veces: number | undefined = req.body.veces;
          // @ts-expect-error the schema declares no field "otro"
          const otro = req.body.otro;
          return { texto, veces, otro };
        },
      },
      pricing: { guardar: (req) => (req.body.veces ?? 1) * 2 },
    }),
  });
  assert.deepEqual(
    plugin.manifest.routes.map((r) => r.id),
    ['saludo', 'guardar'],
  );
  assert.ok(Object.isFrozen(plugin.manifest));
});

test('a misspelt handler id, or pricing for a free route, does not compile', () => {
  const misspelt = definePlugin({
    manifest: { id: 'hola', version: '1.0.0', sdk: '^1.0.0', title: 'Hola', routes },
    // @ts-expect-error "guardra" is not a route id, so "guardar" has no handler
    setup: () => ({ handlers: { saludo: () => 1, guardra: () => 2 } }),
  });
  const pricedFree = definePlugin({
    manifest: { id: 'hola', version: '1.0.0', sdk: '^1.0.0', title: 'Hola', routes },
    // @ts-expect-error "saludo" declares no credits, so it cannot be priced
    setup: () => ({ handlers: { saludo: () => 1, guardar: () => 2 }, pricing: { saludo: () => 0 } }),
  });
  assert.equal(misspelt.manifest.id, pricedFree.manifest.id);
});
