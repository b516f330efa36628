import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { routeSchemaProblem } from './schema-validation.js';

const require = createRequire(import.meta.url);
const ajvLoaded = () => Object.keys(require.cache).some((file) => file.includes('/node_modules/ajv/'));

test('ajv is loaded by the first schema compiled, not by importing the validators nor by checking shapes', () => {
  assert.equal(ajvLoaded(), false);
  assert.equal(routeSchemaProblem({ requestSchema: { type: 'object' } }, false), null);
  assert.equal(ajvLoaded(), false);
  assert.equal(routeSchemaProblem({ requestSchema: { type: 'object' } }), null);
  assert.equal(ajvLoaded(), true);
});
