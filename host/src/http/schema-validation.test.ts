import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isApiError, pagingQuery } from '@cerebro/sdk';
import { compileBodyValidator, compileQueryValidator, routeSchemaProblem } from './schema-validation.js';

const detailOf = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (err) {
    assert.ok(isApiError(err) && err.status === 422, String(err));
    return err.detail;
  }
  return assert.fail('expected a 422');
};

test('nested problems are located by path, array items by index, union types named in Spanish', () => {
  const check = compileBodyValidator({
    type: 'object',
    properties: {
      contacto: {
        type: 'object',
        properties: { email: { type: 'string', maxLength: 5 } },
        additionalProperties: false,
      },
      tonos: { type: 'array', items: { type: 'string' }, maxItems: 2 },
      limite: { type: ['integer', 'null'] },
    },
    additionalProperties: false,
  });
  // Top-level fields in the order sent; inside one object, ajv's order (unknown fields first).
  assert.deepEqual(
    detailOf(() => check({ contacto: { email: 'muy largo', a: 1 }, tonos: ['a', 1, 'c'], limite: 'x' })),
    [
      { loc: ['body', 'contacto', 'a'], msg: 'Campo desconocido.', type: 'extra_forbidden' },
      { loc: ['body', 'contacto', 'email'], msg: 'Debe tener como máximo 5 caracteres.', type: 'string_too_long' },
      { loc: ['body', 'tonos'], msg: 'Debe tener como máximo 2 elementos.', type: 'too_long' },
      { loc: ['body', 'tonos', 1], msg: 'Debe ser un texto.', type: 'string_type' },
      { loc: ['body', 'limite'], msg: 'Debe ser un número entero o null.', type: 'int_type' },
    ],
  );
  assert.doesNotThrow(() => check({ contacto: { email: 'a@b' }, tonos: [], limite: null }));
});

test('a required field named like an Object.prototype member is missing unless the body owns it', () => {
  const check = compileBodyValidator({
    type: 'object',
    required: ['toString'],
    properties: { toString: { type: 'string' } },
  });
  assert.deepEqual(
    detailOf(() => check({})),
    [{ loc: ['body', 'toString'], msg: 'Campo obligatorio.', type: 'missing' }],
  );
  assert.doesNotThrow(() => check(JSON.parse('{"toString": "sí"}')));
});

test('query values are converted, defaulted and limited to the declared names, in an object without prototype', () => {
  const read = compileQueryValidator({
    type: 'object',
    properties: { ...pagingQuery(50, 200), solo: { type: 'boolean' } },
  });
  const values = read({ limite: '7', solo: 'true', otro: 'x', ['__proto__']: 'y' });
  assert.equal(Object.getPrototypeOf(values), null);
  assert.deepEqual({ ...values }, { limite: 7, desde: 0, solo: true });
  assert.ok(Object.isFrozen(values));
  assert.deepEqual(
    detailOf(() => read({ desde: '1e20' })),
    [
      {
        loc: ['query', 'desde'],
        msg: `Debe ser menor o igual que ${Number.MAX_SAFE_INTEGER}.`,
        type: 'less_than_equal',
      },
    ],
  );
  assert.deepEqual(
    detailOf(() => read({ limite: ['1', '2'] })),
    [{ loc: ['query', 'limite'], msg: 'Debe ser un número entero.', type: 'int_type' }],
  );
});

test('schemas that do not compile are reported, not thrown', () => {
  assert.equal(
    routeSchemaProblem({ requestSchema: { type: 'object' }, query: { type: 'object', properties: {} } }),
    null,
  );
  assert.match(routeSchemaProblem({ requestSchema: { type: 'nada' } }) ?? '', /requestSchema/);
  assert.match(
    routeSchemaProblem({ query: { type: 'object', properties: { n: { minimum: 'uno' } } } }) ?? '',
    /query no es/,
  );
});

test("without compiling, only the query's shape is checked: a shipped plugin's schemas compile at their first request", () => {
  assert.equal(routeSchemaProblem({ requestSchema: { type: 'nada' } }, false), null);
  assert.equal(routeSchemaProblem({ query: { type: 'object', properties: { n: { minimum: 'uno' } } } }, false), null);
  assert.match(routeSchemaProblem({ query: { type: 'array' } as never }, false) ?? '', /query debe ser/);
  // The same broken body schema, compiled at its first request, is refused there.
  assert.throws(() => compileBodyValidator({ type: 'nada' })({}), /schema/);
});
