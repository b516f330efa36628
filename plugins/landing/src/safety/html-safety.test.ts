import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

const require = createRequire(import.meta.url);
const loaded = (pkg: string) => Object.keys(require.cache).some((file) => file.includes(`/node_modules/${pkg}/`));

test('loading the plugin leaves the HTML parser and sanitizer unloaded until the first page is checked', async () => {
  await import('../index.js');
  assert.equal(loaded('sanitize-html'), false, 'sanitize-html loaded with the plugin');
  assert.equal(loaded('htmlparser2'), false, 'htmlparser2 loaded with the plugin');
  const { htmlSafety } = await import('./html-safety.js');
  const safety = await htmlSafety();
  assert.equal(safety.sanitizeLanding('<p>hola<script>x</script></p>').includes('script'), false);
  assert.ok(loaded('sanitize-html') && loaded('htmlparser2'));
  assert.equal(await htmlSafety(), safety, 'imported once');
});
