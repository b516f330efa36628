import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { launchBrowser, screenshot, seriousA11yViolations, watchPage } from './support/browser.js';

// The browser harness itself: Debian's Chromium starts headless, renders, runs axe-core, and finds a violation when
// there is one (so a clean result from the page tests means something).
test('Debian chromium renders a page, takes a screenshot and runs axe-core', async (t) => {
  const browser = await launchBrowser();
  t.after(() => browser.close());
  const context = await browser.context({ width: 375 });
  const page = await context.newPage();
  const seen = watchPage(page);
  await page.setContent(
    '<!doctype html><html lang="es"><head><title>Prueba</title></head><body><main><h1>Hola</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>',
  );
  assert.equal(await page.textContent('h1'), 'Hola');
  const violations = await seriousA11yViolations(page);
  assert.ok(
    violations.some((v) => v.id === 'image-alt'),
    'an image without alt is a critical violation',
  );
  assert.deepEqual(seen.consoleErrors, []);
  assert.ok(existsSync(await screenshot(page, 'browser-smoke')));
});
