import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core. Never a downloaded browser: `.ci/run` and the postinstall step
 * install the `chromium` package. The background-networking flags keep Chromium from calling Google's hosts, which
 * this closed network refuses many at a time (docs: ../shared/docs/machine-notes.md).
 */
export const CHROMIUM_PATH = process.env.CEREBRO_CHROMIUM ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where screenshots go: CI keeps this folder as the run's artefacts. */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../../test-artifacts/screenshots/', import.meta.url));

export interface TestBrowser {
  browser: Browser;
  /**
   * A fresh context (no cookies) with the given viewport width. `bypassCSP` lets axe-core be injected into pages
   * served with a strict Content-Security-Policy (the policy itself is asserted from the response headers).
   */
  context(options?: { width?: number; height?: number; bypassCSP?: boolean }): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** One Chromium per test file. */
export async function launchBrowser(): Promise<TestBrowser> {
  // playwright gives every launch a new empty profile folder of its own (and removes it), which is the fresh
  // --user-data-dir the machine notes ask for; it refuses that flag passed by hand.
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: FLAGS.filter((f) => f !== '--headless'),
    headless: true,
  });
  return {
    browser,
    context: ({ width = 1280, height = 800, bypassCSP = false } = {}) =>
      browser.newContext({ viewport: { width, height }, bypassCSP }),
    close: async () => {
      await browser.close().catch(() => undefined);
    },
  };
}

/** Saves a full-page screenshot under test-artifacts/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

const axeSource = (() => {
  let source: string | undefined;
  return () => (source ??= createRequire(import.meta.url)('axe-core').source as string);
})();

/** Runs axe-core inside the page; returns the serious and critical violations (the ones a test refuses). */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: axeSource() });
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Collects console errors and every network request a page makes (to prove a page needs nothing outside). */
export function watchPage(page: Page): { consoleErrors: string[]; requests: string[] } {
  const consoleErrors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  page.on('request', (request) => requests.push(request.url()));
  return { consoleErrors, requests };
}
