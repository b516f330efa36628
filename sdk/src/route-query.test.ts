// Compile-time checks of `RouteQuery`: each `@ts-expect-error` fails the build if the error it expects disappears (a
// parameter typed `unknown` or `any` again, an undeclared one readable again); the run-time assertions check the
// schema the types are read from.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pagingQuery, type QuerySchema, type RouteQuery } from './index.js';

const route = {
  query: {
    type: 'object',
    properties: {
      ...pagingQuery(20, 100),
      estado: { enum: ['pendiente', 'fallida'] },
      dias: { type: 'integer', default: 30 },
      nombre: { type: 'string' },
    },
  },
} as const satisfies { query: QuerySchema };

test('a literal query schema types the parameters: defaults always there, the rest optional, nothing else', () => {
  const query: RouteQuery<typeof route> = { limite: 20, desde: 0, dias: 30, estado: 'fallida' };
  const limite: number = query.limite;
  const dias: number = query.dias;
  const estado: 'pendiente' | 'fallida' | undefined = query.estado;
  // @ts-expect-error `nombre` has no default: it may be absent
  const nombre: string = query.nombre;
  // @ts-expect-error the schema declares no parameter "otro"
  const otro = query.otro;
  // @ts-expect-error `estado` is one of its enum's values
  const wrong: RouteQuery<typeof route> = { limite: 1, desde: 0, dias: 1, estado: 'entregada' };
  assert.deepEqual(
    [limite, dias, estado, nombre, otro, wrong.estado],
    [20, 30, 'fallida', undefined, undefined, 'entregada'],
  );
  const paging = pagingQuery(20, 100);
  assert.deepEqual([paging.limite.default, paging.limite.maximum, paging.desde.default], [20, 100, 0]);
});

test('a route without a query, or with a schema typed as a plain QuerySchema, reads an untyped record', () => {
  const loose: QuerySchema = { type: 'object', properties: { x: { type: 'integer' } } };
  const plain: RouteQuery<{ query: typeof loose }> = { x: 1 };
  const none: RouteQuery<{ path: '/' }> = {};
  // @ts-expect-error an untyped record's values are any query value, not a number
  const x: number = plain.x;
  assert.deepEqual([x, none], [1, {}]);
});
