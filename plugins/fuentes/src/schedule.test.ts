// Scheduled sources relaunch by themselves when `cada_horas` has passed, and only then.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock, startLab, waitForRun } from './test-support.js';

test('a source with cada_horas relaunches by itself once the hours have passed', async (t) => {
  const clock = new ManualClock();
  const lab = await startLab(t, { clock });
  const created = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'url', url: `${lab.site.url}/docs/precios.html`, cada_horas: 2 },
  });
  assert.equal(created.body.proxima_ejecucion, new Date(clock.now() + 2 * 3_600_000).toISOString());
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(
    (await lab.h.client.get(`${lab.base}/fuentes/${created.body.id}`)).body.ultima_ejecucion,
    null,
    'not before its time',
  );
  clock.advance(2 * 3_600_000 + 1000);
  const until = Date.now() + 10_000;
  while (
    !(await lab.h.client.get(`${lab.base}/fuentes/${created.body.id}`)).body.ultima_ejecucion &&
    Date.now() < until
  )
    await new Promise((r) => setTimeout(r, 30));
  const source = await waitForRun(lab, created.body.id);
  assert.deepEqual(
    [source.ultima_ejecucion.origen, source.ultima_ejecucion.estado, source.ultima_ejecucion.contadores.nuevas],
    ['programada', 'completada', 1],
  );
  assert.equal(
    source.proxima_ejecucion,
    new Date(Date.parse(created.body.proxima_ejecucion) + 1000 + 2 * 3_600_000).toISOString(),
    'the next one is cada_horas after this launch',
  );
});
