// Shared by the module's tests: a test host with fuentes loaded, the loopback site allowed by name, and waits.
import assert from 'node:assert/strict';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import fuentes from './index.js';
import { startTestSite, type TestSite, type TestSiteOptions } from './testing/test-site.js';

export { fuentes };

export interface Lab {
  h: TestHost;
  site: TestSite;
  /** `/mod/fuentes/<space>` */
  base: string;
}

/** Settings that keep tests quick: no politeness pause, 1 s per request, 1 MB per page. */
export const FAST_SETTINGS: Record<string, string> = {
  CEREBRO_FUENTES_PERMITIDOS: 'localhost',
  CEREBRO_FUENTES_PAUSA_MS: '0',
  CEREBRO_FUENTES_MAX_SEGUNDOS_PETICION: '1',
  CEREBRO_FUENTES_MAX_BYTES_PAGINA: String(1024 * 1024),
};

export async function startLab(
  t: { after(fn: () => unknown): void },
  options: { env?: Record<string, string>; site?: TestSiteOptions; clock?: { now(): number }; credits?: number } = {},
): Promise<Lab> {
  const site = await startTestSite(options.site);
  t.after(() => site.close());
  const h = await startTestHost(t, {
    plugins: [fuentes],
    env: { ...FAST_SETTINGS, ...options.env },
    clock: options.clock,
    credits: options.credits,
  });
  return { h, site, base: `/mod/fuentes/${h.spaceId}` };
}

/** Polls the source until its last run has ended; returns the source. */
export async function waitForRun(lab: Lab, sourceId: string, timeoutMs = 20_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await lab.h.client.get(`${lab.base}/fuentes/${sourceId}`);
    assert.equal(res.status, 200, res.text);
    const run = res.body.ultima_ejecucion;
    if (run && !['en_cola', 'ejecutando'].includes(run.estado)) return res.body;
    if (Date.now() > until) assert.fail(`la ejecución no terminó: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Documents of the test space (first 200), by name. */
export async function documentsOf(lab: Lab): Promise<Map<string, any>> {
  const res = await lab.h.client.get(`/rag/${lab.h.spaceId}/documents?limite=200`);
  assert.equal(res.status, 200, res.text);
  return new Map(res.body.documentos.map((d: any) => [d.nombre, d]));
}

/** Waits until the space has nothing queued or being indexed (the testing kit's own wait). */
export function waitForIndexing(lab: Lab): Promise<void> {
  return lab.h.waitForIndexing();
}

/** A clock the test moves by hand, starting now. */
export class ManualClock {
  private ms = Date.now();
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}
