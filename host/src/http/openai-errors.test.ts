import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openAiError } from './openai-errors.js';

test("OpenAI's error object: the detail as its message, the codigo as its code, the type from the status", () => {
  assert.deepEqual(openAiError(402, 'Sin créditos.', 'insufficient_credits'), {
    message: 'Sin créditos.',
    type: 'insufficient_quota',
    code: 'insufficient_credits',
    param: null,
  });
  assert.deepEqual(
    openAiError(
      422,
      [{ loc: ['body', 'messages', 2, 'content'], msg: 'Debe ser texto.', type: 'type' }],
      'validation_failed',
    ),
    {
      message: 'messages.2.content: Debe ser texto.',
      type: 'invalid_request_error',
      code: 'validation_failed',
      param: 'messages.2.content',
    },
  );
  assert.equal(openAiError(503, { codigo: 'ocupado', detalle: 'Reintenta.' }, 'ocupado').message, 'Reintenta.');
  assert.deepEqual(
    [401, 403, 404, 429, 500, 413].map((s) => openAiError(s, 'x', 'c').type),
    [
      'authentication_error',
      'permission_error',
      'not_found_error',
      'rate_limit_error',
      'server_error',
      'invalid_request_error',
    ],
  );
  assert.equal(openAiError(429, 'Cuota diaria agotada.', 'quota_exceeded').type, 'insufficient_quota');
});
