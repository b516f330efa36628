import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRootLogger } from './logger.js';

test('CEREBRO_LOG_FORMAT=pretty writes one readable line per entry, keeps the fields and the redaction', async () => {
  const written: string[] = [];
  const log = createRootLogger(
    'info',
    {
      write: (chunk: string) => {
        written.push(chunk);
      },
    },
    'pretty',
  );
  log.info({ espacio: 'uno', authorization: 'Bearer crb_0123456789abcdef.secreto' }, 'petición');
  log.warn('segunda');
  await new Promise((resolve) => setImmediate(resolve));
  const text = written.join('');
  assert.doesNotMatch(text, /^\{/m, 'not JSON');
  assert.match(text, /INFO.*petición/);
  assert.match(text, /WARN.*segunda/);
  assert.match(text, /espacio: "uno"/);
  assert.doesNotMatch(text, /secreto/);
  assert.equal(text.split('\n').filter((l) => /petición|segunda/.test(l)).length, 2);
});
