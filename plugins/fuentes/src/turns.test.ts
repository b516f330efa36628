// Issue #23, item 2: background work takes turns between spaces. A space with several crawls or fichas waiting must
// not make another space's crawl or ficha wait for all of them (first come, first served did): the other space's
// starts as soon as the one going when it arrived ends.
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
  await h.admin.createSpace({ id: 'vecino', ownerId: h.ownerId, modules: ['fuentes'] });
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

async function fichaTimes(
  lab: Lab,
  space: string,
  id: string,
): Promise<{ creada: number; inicio: number; fin: number }> {
  const until = Date.now() + 60_000;
  for (;;) {
    const res = await lab.h.client.get(`/mod/fuentes/${space}/fichas/${id}`);
    assert.equal(res.status, 200, res.text);
    if (res.body.estado === 'lista')
      return {
        creada: Date.parse(res.body.creada),
        inicio: Date.parse(res.body.inicio),
        fin: Date.parse(res.body.fin),
      };
    assert.ok(['en_cola', 'generando'].includes(res.body.estado), res.text);
    if (Date.now() > until) assert.fail(`ficha sin terminar: ${res.text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("fichas take turns between spaces: one space's waiting fichas delay another space's ficha by one ficha at most", async (t) => {
  const lab = await startLab(t);
  const { h } = lab;
  await h.admin.createSpace({ id: 'vecino', ownerId: h.ownerId, modules: ['api', 'fuentes'] });
  const upload = async (space: string, files: Record<string, string>) => {
    const form = new FormData();
    for (const [name, text] of Object.entries(files)) form.append('archivos', new Blob([text]), name);
    const res = await h.client.post(`/rag/${space}/load_documents`, { body: form });
    assert.equal(res.status, 202, res.text);
  };
  const ficha = async (space: string, documento: string) => {
    const res = await h.client.post(`/mod/fuentes/${space}/fichas`, {
      json: { tema: 'Copias de seguridad', campos: ['frecuencia'], documentos: [documento] },
    });
    assert.equal(res.status, 202, res.text);
    return res.body.id as string;
  };
  await upload('vecino', { 'horario.txt': 'Las copias de seguridad se hacen cada noche a las dos.' });
  for (let i = 0; i < 400 && !(await h.client.get('/rag/vecino/indexing_status')).body.listo; i++)
    await new Promise((r) => setTimeout(r, 50));
  // The busy space's first ficha waits for its document, last of a backlog being indexed, holding the one turn.
  const paragraph = 'El servidor guarda copias de seguridad cada noche en el disco externo. ';
  await upload(
    h.spaceId,
    Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`lote-${i}.txt`, `${paragraph.repeat(3000)} ${i}`])),
  );
  const backlog = [await ficha(h.spaceId, 'lote-5.txt')];
  for (let i = 0; i < 3; i++) backlog.push(await ficha(h.spaceId, `lote-${i}.txt`));
  const neighbourId = await ficha('vecino', 'horario.txt');

  const neighbour = await fichaTimes(lab, 'vecino', neighbourId);
  const fichas = [];
  for (const id of backlog) fichas.push(await fichaTimes(lab, h.spaceId, id));
  const overtaking = fichas.filter((f) => f.inicio > neighbour.creada && f.inicio <= neighbour.inicio);
  assert.deepEqual(overtaking, [], JSON.stringify({ neighbour, fichas }));
  assert.ok(
    fichas.filter((f) => f.fin > neighbour.creada && f.fin <= neighbour.inicio).length <= 1,
    JSON.stringify({ neighbour, fichas }),
  );
  assert.ok(
    fichas.filter((f) => f.inicio > neighbour.inicio).length >= 2,
    `the busy space's later fichas went after the neighbour's: ${JSON.stringify({ neighbour, fichas })}`,
  );
});
