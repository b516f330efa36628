import assert from 'node:assert/strict';
import { test } from 'node:test';
import { REDACTED, withoutSecrets } from './audit-redaction.js';

test('fields named like secrets are hidden; a route used as a key (a count per route) is data, not a field', () => {
  assert.deepEqual(
    withoutSecrets({
      token: 'crb_x.y',
      secreto: 'whsec_z',
      webhook: { url: 'https://example.com', clave_firma: 'k' },
      claves: 3,
      por_ruta: { 'POST /tokens': 2, 'PATCH /tokens/:id': 1, 'GET /rag/:espacio/documents': 5 },
    }),
    {
      token: REDACTED,
      secreto: REDACTED,
      webhook: { url: 'https://example.com', clave_firma: REDACTED },
      claves: 3,
      por_ruta: { 'POST /tokens': 2, 'PATCH /tokens/:id': 1, 'GET /rag/:espacio/documents': 5 },
    },
  );
});
