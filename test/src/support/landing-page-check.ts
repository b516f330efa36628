// What every served landing page must hold in Chromium, at one width: no sideways scroll, no console error, no
// request beyond its own document, no serious axe violation; a screenshot is kept. Used for the owners' `/html`
// route (with a key) and for the published page a visitor opens (without one).
import assert from 'node:assert/strict';
import { screenshot, seriousA11yViolations, watchPage, type TestBrowser } from './browser.js';

export async function checkLandingPage(
  browser: TestBrowser,
  url: string,
  name: string,
  width: number,
  headers: Record<string, string> = {},
): Promise<void> {
  // CSP bypassed so axe-core can be injected; the policy itself is asserted from the response headers.
  const context = await browser.context({ width, height: 900, bypassCSP: true });
  await context.setExtraHTTPHeaders(headers);
  try {
    const page = await context.newPage();
    const seen = watchPage(page);
    const response = await page.goto(url);
    assert.equal(response?.status(), 200, name);
    const overflow = await page.evaluate<{ scroll: number; client: number }>(
      '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
    );
    assert.ok(
      overflow.scroll <= overflow.client,
      `${name} @${width}: horizontal scroll (${overflow.scroll} > ${overflow.client})`,
    );
    await screenshot(page, `${name}-${width}`);
    const violations = await seriousA11yViolations(page);
    assert.deepEqual(violations, [], `${name} @${width}: ${JSON.stringify(violations)}`);
    assert.deepEqual(seen.consoleErrors, [], `${name} @${width}`);
    assert.deepEqual(
      seen.requests.filter((r) => r !== url),
      [],
      `${name} @${width}: the page requested something`,
    );
  } finally {
    await context.close();
  }
}
