import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migratedDb } from '../testing/fixtures.js';
import { seedDocument, sqlitePassageIndex } from '../testing/seed.js';
import { SqlitePassageIndexRepository } from '../../storage/sqlite/passage-index/passage-index-repository.js';
import { PassageIndex } from './passage-index.js';
import { Retriever } from './retriever.js';
import { reciprocalRankFusion } from './rrf.js';
import { sqliteSteps } from '../../storage/sqlite/passage-index/sqlite-job-steps.js';

async function setup() {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  await seedDocument(db, index, 'acme', 'red.md', [
    { text: 'La configuración del proxy se guarda en /etc/apt/apt.conf.', headings: ['Red', 'Proxy'] },
    { text: 'El servidor DNS se define en /etc/resolv.conf.', headings: ['Red', 'DNS'] },
    { text: 'Installing packages requires root privileges.', headings: ['Packages'] },
  ]);
  await seedDocument(db, index, 'otra', 'secreto.md', [
    { text: 'La configuración secreta del proxy de la otra empresa usa el puerto 3128.', page: 4 },
  ]);
  return { db, index };
}

test('search finds passages regardless of accents and inflection', async () => {
  const { index } = await setup();
  for (const q of ['configuracion proxy', 'CONFIGURAR el proxy', '¿Dónde se configura el proxy?']) {
    const hits = await index.search('acme', q, 5);
    assert.equal(hits[0]?.documentName, 'red.md', q);
    assert.match(hits[0]!.text, /proxy/);
    assert.deepEqual(hits[0]!.headings, ['Red', 'Proxy']);
    assert.ok(hits[0]!.bm25 > 0);
  }
  assert.match((await index.search('acme', 'install package', 5))[0]!.text, /Installing packages/);
});

test('a heading counts as part of its passage', async () => {
  const { index } = await setup();
  assert.match((await index.search('acme', 'dns', 5))[0]!.text, /resolv\.conf/);
});

test('spaces are isolated: search, passage lookup, stats and deletion never cross', async () => {
  const { db, index } = await setup();
  const acme = await index.search('acme', 'configuración proxy puerto 3128 secreta empresa', 10);
  assert.ok(acme.length > 0);
  assert.ok(acme.every((h) => h.documentName === 'red.md'));
  const otra = await index.search('otra', 'configuración proxy', 10);
  assert.deepEqual(
    otra.map((h) => h.documentName),
    ['secreto.md'],
  );
  assert.equal(otra[0]!.page, 4);
  assert.equal((await index.search('nadie', 'proxy', 10)).length, 0);
  assert.equal(await index.passage('acme', otra[0]!.id), null, 'a passage id of another space is not readable');
  assert.equal((await index.stats('acme')).passages, 3);
  assert.equal((await index.stats('otra')).passages, 1);

  sqliteSteps(index.repository.jobSteps(null)).deleteDocument('acme', 'doc-red.md');
  assert.equal((await index.search('acme', 'proxy', 10)).length, 0);
  assert.equal((await index.search('otra', 'proxy', 10)).length, 1);
  void db;
});

test('a space id that looks like FTS syntax or SQL is just an id', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const weird = `x" OR "* AND {body}: a'; DROP TABLE cerebro_passages; --`;
  await seedDocument(db, index, weird, 'a.md', [{ text: 'Texto del espacio raro sobre impresoras.' }]);
  await seedDocument(db, index, 'x', 'b.md', [{ text: 'Texto del espacio x sobre impresoras.' }]);
  assert.deepEqual(
    (await index.search(weird, 'impresoras', 5)).map((h) => h.documentName),
    ['a.md'],
  );
  assert.deepEqual(
    (await index.search('x', 'impresoras', 5)).map((h) => h.documentName),
    ['b.md'],
  );
});

test('questions with FTS5 operators, quotes or punctuation only are safe', async () => {
  const { index } = await setup();
  for (const q of [
    '"proxy',
    'proxy AND NOT dns',
    'NEAR(proxy dns)',
    '*',
    '{body}: proxy',
    '{space_key}: k',
    '-- ; \' "',
    '¿?',
    '',
  ]) {
    await assert.doesNotReject(index.search('acme', q, 5), q);
  }
  assert.equal((await index.search('acme', '¿?', 5)).length, 0);
  assert.equal((await index.search('acme', 'NEAR(proxy dns)', 5))[0]?.documentName, 'red.md');
});

test('replacing a document swaps its passages', async () => {
  const { index } = await setup();
  await index.repository.replaceDocument('acme', 'doc-red.md', [
    { ord: 0, text: 'Solo queda la impresora.', page: null, headings: [], terms: 'impresor', headingTerms: '' },
  ]);
  assert.equal((await index.search('acme', 'proxy', 5)).length, 0);
  assert.equal((await index.search('acme', 'impresora', 5)).length, 1);
});

test('reciprocal rank fusion rewards agreement between lists', async () => {
  const fused = reciprocalRankFusion([
    [1, 2, 3],
    [3, 1, 4],
  ]);
  assert.deepEqual(
    fused.map((f) => f.id),
    [1, 3, 2, 4],
  );
  assert.ok(Math.abs(fused[0]!.score - (1 / 61 + 1 / 62)) < 1e-12);
});

test('in a large space, very common question words are left out of the match without losing the answer', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const filler = Array.from({ length: 6000 }, (_, i) => ({ text: `El sistema número ${i} funciona con normalidad.` }));
  await seedDocument(db, index, 'grande', 'relleno.txt', filler);
  await seedDocument(db, index, 'grande', 'clave.txt', [
    { text: 'El sistema de refrigeración líquida necesita revisión anual.' },
  ]);
  const hits = await index.search('grande', 'sistema de refrigeración', 3);
  assert.equal(hits[0]?.documentName, 'clave.txt');
  // With only the common word, it is still searched (nothing rarer to rely on).
  assert.equal((await index.search('grande', 'sistema', 3)).length, 3);
});

test('passages with every question word rank first, then passages with some of them fill the list', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  await seedDocument(db, index, 's', 'a.md', [
    { text: 'Kerberos kerberos kerberos: el protocolo kerberos y sus tickets kerberos.' },
    { text: 'La caché de credenciales guarda tickets de kerberos.' },
    { text: 'Otra caché distinta: la del navegador.' },
  ]);
  const hits = await index.search('s', 'caché kerberos', 3);
  assert.match(hits[0]!.text, /caché de credenciales/);
  assert.equal(hits.length, 3);
  assert.equal(new Set(hits.map((h) => h.id)).size, 3, 'no passage twice');
});

test('hidden passages are stored but never returned; swapIn exchanges versions; purge deletes what is hidden', async () => {
  const { db, index } = await setup();
  const docId = db
    .prepare("SELECT id FROM cerebro_documents WHERE space = 'acme' AND name = 'red.md'")
    .pluck()
    .get() as string;
  const run = { space: 'acme', id: docId, runId: 42 };
  const passage = (ord: number, text: string, terms: string) => ({
    ord,
    text,
    page: null,
    headings: [],
    terms,
    headingTerms: '',
  });
  // Many passages of the new version that would outrank the old one: hidden rows must not crowd out the top k.
  const ids = await index.repository.addHidden(
    run,
    Array.from({ length: 30 }, (_, i) => passage(i, `Proxy nuevo ${i}.`, 'proxy proxy proxy nuev')),
  );
  assert.equal(ids.length, 30);
  const before = await index.search('acme', 'proxy', 3);
  assert.equal(before.length, 1);
  assert.match(before[0]!.text, /apt\.conf/);
  assert.equal(await index.passage('acme', ids[0]!), null);

  assert.equal(db.transaction(() => sqliteSteps(index.repository.jobSteps(null)).swapIn(run))(), 30);
  const after = await index.search('acme', 'proxy', 3);
  assert.equal(after.length, 3);
  assert.ok(after.every((h) => /Proxy nuevo/.test(h.text)));
  assert.equal((await index.search('acme', 'resolv dns', 3)).length, 0, 'the old version is hidden at once');

  const purged: number[] = [];
  let gone: number[];
  do {
    gone = await index.repository.purge(2, null);
    purged.push(...gone);
  } while (gone.length === 2);
  assert.equal(purged.length, 3, 'the three passages of the old version');
  assert.equal(db.prepare("SELECT count(*) FROM cerebro_passages WHERE space = 'acme'").pluck().get(), 30);
  assert.equal((await index.search('otra', 'proxy', 3)).length, 1, 'other spaces untouched');
});

test('a space searches the languages its documents are in, and a language it barely has is left out', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const spanish = Array.from({ length: 40 }, (_, i) => ({
    text: `El servicio número ${i} se reinicia con la orden systemctl restart y se habilita con systemctl enable.`,
  }));
  await seedDocument(db, index, 'es', 'guia.md', spanish);
  assert.deepEqual(await index.languages('es'), ['es']);
  const { groups } = await new Retriever(index).retrieve('es', '¿Cómo se reinician los servicios?', 5);
  assert.ok(
    groups.every((alternatives) => alternatives.length === 1),
    'no English stems are searched',
  );

  // One English passage among forty-one Spanish ones: its stems are not searched.
  await seedDocument(db, index, 'es', 'notes.md', [
    {
      text: 'The services of this machine are restarted by the operator every night with the tools that the vendor ships.',
    },
  ]);
  assert.deepEqual(await index.languages('es'), ['es']);

  await seedDocument(
    db,
    index,
    'es',
    'manual.md',
    spanish.map(() => ({
      text: 'The service is restarted with systemctl restart and it is enabled with the systemctl enable command.',
    })),
  );
  assert.deepEqual(await index.languages('es'), ['es', 'en'], 'a new document is taken into account at once');
  sqliteSteps(index.repository.jobSteps(null)).deleteDocument('es', 'doc-manual.md');
  db.prepare("DELETE FROM cerebro_documents WHERE space = 'es' AND id = 'doc-manual.md'").run();
  assert.deepEqual(await index.languages('es'), ['es'], 'and so is a removed one');

  await seedDocument(db, index, 'mixto', 'guia.md', spanish);
  await seedDocument(
    db,
    index,
    'mixto',
    'manual.md',
    spanish.map(() => ({
      text: 'The service is restarted with systemctl restart and it is enabled with the systemctl enable command.',
    })),
  );
  assert.deepEqual(await index.languages('mixto'), ['es', 'en']);
  assert.deepEqual(await index.languages('vacio'), ['es', 'en'], 'nothing known yet: every language');
});

test('a loanword asked in the singular finds the passage that writes it in the plural', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  await seedDocument(db, index, 'rrhh', 'equipo.md', [
    { text: 'Las laptops se renuevan cada tres años.', headings: ['Equipo de cómputo'] },
    { text: 'Las guardias se cambian cada semana.', headings: ['Guardias'] },
  ]);
  const hits = await index.search('rrhh', '¿Qué laptop me dan?', 5);
  assert.equal(hits.length, 1);
  assert.equal(hits[0]?.headings[0], 'Equipo de cómputo');
});

test('index-wide word counts follow the content: a word that becomes common weighs less', async () => {
  const { db, index } = await setup();
  const groups = [['proxy']];
  const before = (await index.idf(groups))[0]!;
  await seedDocument(
    db,
    index,
    'otra',
    'mas.md',
    Array.from({ length: 6 }, (_, i) => ({ text: `El proxy número ${i} de la otra empresa.` })),
  );
  assert.ok((await index.idf(groups))[0]! < before);
});

test('one question reads the content version once where each read is a round trip; the next question reads it again', async () => {
  const db = migratedDb();
  const repository = new SqlitePassageIndexRepository(db);
  // PostgreSQL's shape: the version comes back in a later turn, as a socket's answer would.
  const versionOf = repository.contentVersion.bind(repository);
  let reads = 0;
  repository.contentVersion = async () => {
    reads++;
    await new Promise((resolve) => setImmediate(resolve));
    return versionOf();
  };
  const index = new PassageIndex(repository);
  const retriever = new Retriever(index);
  await seedDocument(db, index, 'acme', 'red.md', [{ text: 'La configuración del proxy está en apt.conf.' }]);
  reads = 0;
  const first = await retriever.retrieve('acme', 'configuración del proxy', 5);
  // The reads that judge its passages rely on the same check (the answerer passes the retrieval's `since`).
  await index.idf(first.groups, 'acme', first.since);
  await index.absentGroups(first.groups, 'acme', first.since);
  assert.equal(reads, 1, 'languages, candidates, counts and weights of one question: one version read');
  assert.equal(first.hits.length, 1);

  // What another process stored meanwhile is seen by the next question: it never relies on an older check.
  await seedDocument(db, index, 'acme', 'otro.md', [{ text: 'El proxy de la oficina usa el puerto 3128.' }]);
  const second = await retriever.retrieve('acme', 'proxy', 5);
  assert.equal(reads, 2);
  assert.equal(second.hits.length, 2);
  // Without `since` (a caller outside a question), each read in sequence checks, as before.
  await index.languages('acme');
  await index.languages('acme');
  assert.equal(reads, 4);
  // A check already in flight when a question begins does not serve it (it may miss what was committed since).
  const early = index.languages('acme');
  const since = performance.now();
  await Promise.all([early, index.languages('acme', since)]);
  assert.equal(reads, 6);
});
