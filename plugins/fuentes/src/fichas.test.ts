// Fichas over real HTTP: fields found with their passages and page URLs, a field the documents do not support
// declared missing, a conflict between two pages, fields proposed when none are asked, credits and their refund.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentsOf, startLab, waitForIndexing, waitForRun, type Lab } from './test-support.js';

async function fichaDone(lab: Lab, id: string): Promise<any> {
  const until = Date.now() + 30_000;
  for (;;) {
    const res = await lab.h.client.get(`${lab.base}/fichas/${id}`);
    assert.equal(res.status, 200, res.text);
    if (!['en_cola', 'generando'].includes(res.body.estado)) return res.body;
    if (Date.now() > until) assert.fail(`ficha sin terminar: ${res.text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const balance = async (lab: Lab) => (await lab.h.client.get(`/cuentas/${lab.h.accountId}/bolsa`)).body.saldo as number;
/** The account's credit history, newest first, as `motivo` and `delta` (`consumo-5`). */
const movements = async (lab: Lab) =>
  (
    (await lab.h.client.get(`/cuentas/${lab.h.accountId}/bolsa`)).body.movimientos as {
      motivo: string;
      delta: number;
    }[]
  ).map((m) => `${m.motivo}${m.delta}`);

async function crawled(lab: Lab, paths: string[]): Promise<string> {
  const created = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'lista', urls: paths.map((p) => `${lab.site.url}${p}`), lanzar: true },
  });
  assert.equal(created.status, 201, created.text);
  await waitForRun(lab, created.body.id);
  await waitForIndexing(lab);
  return created.body.id;
}

test('a ficha cites the passages and page URLs of each value, declares unsupported fields missing and shows conflicts', async (t) => {
  const lab = await startLab(t);
  const source = await crawled(lab, ['/docs/precios.html', '/docs/soporte.html', '/blog/2.html']);
  const before = await balance(lab);
  const posted = await lab.h.client.post(`${lab.base}/fichas`, {
    json: {
      tema: 'Plan Básico',
      campos: [
        'precio',
        'horario de soporte',
        { nombre: 'fecha de lanzamiento', pregunta: '¿En qué fecha se lanzó el plan Básico?' },
      ],
      fuentes: [source],
    },
  });
  assert.equal(posted.status, 202, posted.text);
  assert.equal(posted.body.estado, 'en_cola');
  assert.equal(await balance(lab), before - 5, 'a ficha costs 5 credits');
  const done = await fichaDone(lab, posted.body.id);
  assert.equal(done.estado, 'lista', JSON.stringify(done));
  assert.deepEqual(done.resumen, { campos: 3, encontrados: 2, sin_datos: 1, conflictos: 1 });

  const detail = await lab.h.client.get(`${lab.base}/fichas/${posted.body.id}/markdown`, {
    headers: { accept: 'application/json' },
  });
  assert.equal(detail.status, 200, detail.text);
  const byName = new Map(detail.body.campos.map((c: any) => [c.nombre, c]));
  const docs = await documentsOf(lab);
  // Provenance: every citation is a passage of a document of the space, with that document's page URL.
  for (const cited of detail.body.fuentes) {
    const doc = docs.get(cited.documento);
    assert.ok(doc, `cited document ${cited.documento} exists`);
    assert.equal(cited.url, doc.origen.url);
  }
  const cite = (n: number) => detail.body.fuentes.find((f: any) => f.n === n);

  const price: any = byName.get('precio');
  assert.equal(price.encontrado, true);
  assert.ok(price.citas.length >= 1);
  assert.ok(
    price.citas.some((n: number) => cite(n).extracto.includes(price.valor.slice(0, 30))),
    'the value is taken from a cited passage',
  );
  assert.ok(price.conflicto, 'precios.html says 10 euros, the February post 12');
  const conflictValues = price.conflicto.valores.map((v: any) => v.valor).join(' | ');
  assert.match(conflictValues, /10 euros/);
  assert.match(conflictValues, /12 euros/);
  const conflictUrls = price.conflicto.valores
    .flatMap((v: any) => v.citas.map((n: number) => new URL(cite(n).url).pathname))
    .sort();
  assert.deepEqual(conflictUrls, ['/blog/2.html', '/docs/precios.html']);

  const support: any = byName.get('horario de soporte');
  assert.equal(support.encontrado, true);
  assert.match(support.valor, /lunes a viernes/);
  assert.equal(new URL(cite(support.citas[0]).url).pathname, '/docs/soporte.html');

  const launch: any = byName.get('fecha de lanzamiento');
  assert.deepEqual([launch.encontrado, launch.valor, launch.citas], [false, null, []]);
  assert.match(launch.motivo, /no dicen nada/);

  const markdown = await lab.h.client.get(`${lab.base}/fichas/${posted.body.id}/markdown`);
  assert.match(markdown.headers.get('content-type') ?? '', /text\/markdown/);
  assert.match(markdown.text, /^# Plan Básico/);
  assert.match(markdown.text, /## fecha de lanzamiento\n\n\*\*Sin datos\.\*\*/);
  assert.match(markdown.text, /Conflicto entre documentos/);
  assert.match(
    markdown.text,
    new RegExp(`\\[localhost:${lab.site.port} › docs › soporte\\.html\\]\\(${lab.site.url}/docs/soporte\\.html\\)`),
  );

  const list = await lab.h.client.get(`${lab.base}/fichas`);
  assert.deepEqual([list.body.total, list.body.fichas[0].id], [1, posted.body.id]);
});

test('without campos the fields are proposed from the documents, each found with its passages', async (t) => {
  const lab = await startLab(t);
  await crawled(lab, ['/docs/precios.html', '/docs/soporte.html', '/blog/2.html']);
  const posted = await lab.h.client.post(`${lab.base}/fichas`, { json: { tema: 'plan Básico' } });
  const done = await fichaDone(lab, posted.body.id);
  assert.equal(done.estado, 'lista', JSON.stringify(done));
  const detail = (
    await lab.h.client.get(`${lab.base}/fichas/${posted.body.id}/markdown`, { headers: { accept: 'application/json' } })
  ).body;
  assert.equal(detail.campos_propuestos, true);
  assert.ok(detail.campos.length >= 2, JSON.stringify(detail.campos.map((c: any) => c.nombre)));
  for (const field of detail.campos)
    assert.ok(field.encontrado && field.citas.length > 0, `${field.nombre} is backed by a passage`);
  assert.ok(
    detail.campos.some((c: any) => c.nombre === 'Precios'),
    'a section heading of the documents becomes a field',
  );

  const nothing = await lab.h.client.post(`${lab.base}/fichas`, { json: { tema: 'submarinos nucleares' } });
  const none = await fichaDone(lab, nothing.body.id);
  assert.deepEqual(
    [none.estado, none.resumen.campos],
    ['lista', 0],
    'a topic the documents do not mention proposes nothing',
  );
  const md = await lab.h.client.get(`${lab.base}/fichas/${nothing.body.id}/markdown`);
  assert.match(md.text, /no tienen información sobre este tema/);
});

test('a ficha that cannot be assembled ends fallida with its reason and gives its credits back; bad requests are 422', async (t) => {
  const lab = await startLab(t);
  const empty = await lab.h.client.post(`${lab.base}/fuentes`, {
    json: { tipo: 'url', url: `${lab.site.url}/docs/precios.html` },
  });
  const before = await balance(lab);
  const posted = await lab.h.client.post(`${lab.base}/fichas`, {
    json: { tema: 'Precios', campos: ['precio'], fuentes: [empty.body.id] },
  });
  assert.equal(posted.status, 202);
  const done = await fichaDone(lab, posted.body.id);
  assert.equal(done.estado, 'fallida');
  assert.match(done.motivo, /ningún documento/);
  assert.equal(await balance(lab), before, 'the 5 credits came back');
  const notReady = await lab.h.client.get(`${lab.base}/fichas/${posted.body.id}/markdown`);
  assert.equal(notReady.status, 409);

  const bad = await lab.h.client.post(`${lab.base}/fichas`, {
    json: { tema: ' ', campos: ['a', 'A'], fuentes: ['no-existe'], documentos: ['nada.pdf'] },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.deepEqual(
    bad.body.detail.map((d: any) => d.loc.join('.')),
    ['body.tema', 'body.campos.1', 'body.fuentes.0', 'body.documentos.0'],
  );
  assert.equal(await balance(lab), before, 'a refused request costs nothing');
  assert.deepEqual(
    await movements(lab),
    ['reembolso5', 'consumo-5', 'recarga1000'],
    'only the failed ficha moved credits (charged, then given back); the refused request never reached the pool',
  );
  assert.equal((await lab.h.client.get(`${lab.base}/fichas/otra`)).status, 404);
});

test('on an empty pool a ficha with unknown sources or documents is still a 422, not 402, and moves nothing', async (t) => {
  const lab = await startLab(t, { credits: 0 });
  const bad = await lab.h.client.post(`${lab.base}/fichas`, {
    json: { tema: 'Precios', fuentes: ['no-existe'], documentos: ['nada.pdf'] },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.deepEqual(
    bad.body.detail.map((d: { loc: string[] }) => d.loc.join('.')),
    ['body.fuentes.0', 'body.documentos.0'],
  );
  const sound = await lab.h.client.post(`${lab.base}/fichas`, { json: { tema: 'Precios' } });
  assert.equal(sound.status, 402, 'a sound request still needs its credits');
  assert.deepEqual(await movements(lab), []);
});
