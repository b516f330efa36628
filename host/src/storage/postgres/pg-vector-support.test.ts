import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPgPool } from './pg-driver.js';
import { pgVectorSearch } from './pg-vector-support.js';
import { pgUnavailable, TEST_SERVER_URL } from './testing/pg-test-database.js';

const skip = (await pgUnavailable()) ?? false;

test('pgvector is used when the server offers it, exact similarity in the engine otherwise', { skip }, async () => {
  const pool = await createPgPool(TEST_SERVER_URL, { max: 1 });
  try {
    const offered = (await pool.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).rowCount === 1;
    assert.equal(await pgVectorSearch(pool), offered ? 'pgvector' : 'exacta_en_el_motor');
  } finally {
    await pool.end();
  }
});
