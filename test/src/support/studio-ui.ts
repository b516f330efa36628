import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { launchBrowser, screenshot, seriousA11yViolations, watchPage, type TestBrowser } from './browser.js';
import { OWNER_EMAIL, OWNER_PASSWORD, withPassword } from './studio.js';

/** A real host with every installed plugin, an owner who can sign in to Studio, and a Chromium to drive it. */
export interface StudioWorld {
  h: TestHost;
  browser: TestBrowser;
  /** `http://127.0.0.1:<port>/studio/` */
  studio: string;
}

export async function startStudioWorld(t: TestContext, env: Record<string, string> = {}): Promise<StudioWorld> {
  const h = await startTestHost(t, { discover: true, spaceId: 'demo', credits: 500, env });
  await withPassword(h);
  const browser = await launchBrowser();
  t.after(() => browser.close());
  return { h, browser, studio: `${h.url}/studio/` };
}

/** A page of a fresh browser context (no cookies) at the given width, with its console errors and requests watched. */
export interface Seen {
  /** Errors of the page's own code (a refused request is logged by Chromium too; those are answers the page shows). */
  consoleErrors: string[];
  requests: string[];
  /** Answers 500 and above: never expected from the console's calls. */
  serverErrors: string[];
}

export async function openPage(
  world: StudioWorld,
  width = 1280,
  options: { enforceCsp?: boolean } = {},
): Promise<{ page: Page; seen: Seen }> {
  // axe-core is injected as a script tag, which the strict CSP refuses: pages checked with axe bypass CSP, and one
  // test walks every page with the policy enforced to prove the console itself needs nothing it forbids.
  const context = await world.browser.context({ width, height: 900, bypassCSP: options.enforceCsp !== true });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const watched = watchPage(page);
  const serverErrors: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 500) serverErrors.push(`${r.status()} ${r.url()}`);
  });
  return {
    page,
    seen: {
      get consoleErrors() {
        return watched.consoleErrors.filter((e) => !e.startsWith('Failed to load resource'));
      },
      requests: watched.requests,
      serverErrors,
    },
  };
}

/** Signs in through the form, as an owner would, and waits for the console. */
export async function signInThroughForm(
  page: Page,
  studio: string,
  email = OWNER_EMAIL,
  password = OWNER_PASSWORD,
): Promise<void> {
  await page.goto(studio);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('heading', { level: 1, name: 'Espacios' }).waitFor();
}

/** Opens a console page by its path below /studio/ through the navigation (the client-side router), and waits for its title. */
export async function goTo(page: Page, studio: string, path: string, title: string): Promise<void> {
  await page.goto(studio + path);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

/**
 * What every page must hold: axe-core finds no serious or critical violation, nothing scrolls sideways (375 px
 * phones included), and a screenshot is kept as a test artefact.
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  const violations = await seriousA11yViolations(page);
  assert.deepEqual(
    violations.map((v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes.slice(0, 3))}`),
    [],
    `${name}: accessibility`,
  );
  const overflow = await page.evaluate<number>(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
  assert.ok(overflow <= 0, `${name}: the page scrolls sideways by ${overflow}px`);
  await screenshot(page, name);
}
