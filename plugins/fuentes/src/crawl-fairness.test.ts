// Issue #23, item 2: background work takes turns between spaces. A space with several crawls waiting must not
// make another space's crawl wait for all of them (first come, first served did): the other space's run starts as
// soon as the run going when it arrived ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startLab, waitForRun, type Lab } from './test-support.js';

async function launch(lab: Lab, space: string, urls: string[]): Promise<string> {
  const created = await lab.h.client.post(`/mod/fuentes/${space}/fuentes`, {
    json: { tipo: 'lista', urls, lanzar: true },
  });
  assert.equal(created.status, 201, created.text);
  return created.body.id;
}

async function lastRun(lab: Lab, space: string, id: string): Promise<{ creada: number; inicio: number; fin: number }> {
  const run = (await waitForRun({ ...lab, base: `/mod/fuentes/${space}` }, id, 60_000)).ultima_ejecucion;
  assert.equal(run.estado, 'completada', JSON.stringify(run));
  return { creada: Date.parse(run.creada), inicio: Date.parse(run.inicio), fin: Date.parse(run.fin) };
}

test("crawls take turns between spaces: one space's waiting runs delay another space's run by one run at most", async (t) => {
  const lab = await startLab(t, {
    env: { CEREBRO_FUENTES_EJECUCIONES_SIMULTANEAS: '1', CEREBRO_FUENTES_CONCURRENCIA_POR_EJECUCION: '1' },
    // Two pages of 400 ms each per run, read one at a time: every run lasts about a second.
    site: { generatedPages: 10, latencyMs: 400 },
  });
  const { h, site } = lab;
  h.admin.createSpace({ id: 'vecino', ownerId: h.ownerId, modules: ['fuentes'] });
  const pages = (i: number) => [`${site.url}/gen/${2 * i}.html`, `${site.url}/gen/${2 * i + 1}.html`];

  const backlog: string[] = [];
  for (let i = 0; i < 4; i++) backlog.push(await launch(lab, h.spaceId, pages(i)));
  const neighbourId = await launch(lab, 'vecino', pages(4));

  const neighbour = await lastRun(lab, 'vecino', neighbourId);
  const runs = await Promise.all(backlog.map((id) => lastRun(lab, h.spaceId, id)));
  // First come, first served would start the neighbour's run after all four; in turns, no waiting run of the busy
  // space starts between the neighbour's launch and its start, and only the run already going ends meanwhile.
  const overtaking = runs.filter((r) => r.inicio > neighbour.creada && r.inicio <= neighbour.inicio);
  assert.deepEqual(overtaking, [], JSON.stringify({ neighbour, runs }));
  const endedMeanwhile = runs.filter((r) => r.fin > neighbour.creada && r.fin <= neighbour.inicio);
  assert.ok(endedMeanwhile.length <= 1, JSON.stringify({ neighbour, runs }));
  assert.ok(
    runs.filter((r) => r.inicio > neighbour.inicio).length >= 2,
    `the busy space's later runs went after the neighbour's: ${JSON.stringify({ neighbour, runs })}`,
  );
});
