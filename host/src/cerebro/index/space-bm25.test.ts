import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migratedDb } from '../testing/fixtures.js';
import { seedDocument, sqlitePassageIndex } from '../testing/seed.js';
import { exactQueryWords, queryTermGroups } from '../text/analyzer.js';
import { literalWords } from '../text/identifiers.js';
import { PassageIndex } from './passage-index.js';
import { groupFrequencies, spaceBm25 } from './space-bm25.js';

const TIENDA = [
  { text: 'El envío a Canarias cuesta 149 € y tarda entre 15 y 20 días laborables.', headings: ['Envíos'] },
  { text: 'La garantía de los muebles es de tres años desde la entrega.', headings: ['Garantía'] },
  { text: 'Los pedidos de más de 600 € tienen envío gratuito a la península.', headings: ['Envíos'] },
  { text: 'Aceptamos tarjeta, transferencia y pago a plazos.', headings: ['Pago'] },
];

const ranking = async (index: PassageIndex, space: string, q: string) =>
  (await index.search(space, q, 5)).map((h) => ({ text: h.text, bm25: h.bm25 }));

test("a space's ranking and word weights do not depend on other spaces' documents", async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  await seedDocument(db, index, 'tienda', 'faq.md', TIENDA);
  const question = 'garantía del envío';
  const alone = await ranking(index, 'tienda', question);
  const groups = queryTermGroups(question);
  const idfAlone = await index.idf(groups, 'tienda');
  // "garantía" is the rarer word in the shop's FAQ, so the warranty passage leads.
  assert.match(alone[0]!.text, /garantía/);

  // A neighbour whose documents say "garantía" everywhere and never "envío": over the whole index, "garantía" would
  // now look common and "envío" rare, and the shipping passages would take the lead.
  await seedDocument(
    db,
    index,
    'vecino',
    'manual.md',
    Array.from({ length: 300 }, (_, i) => ({ text: `La garantía del equipo ${i} cubre piezas y mano de obra.` })),
  );
  assert.deepEqual(await ranking(index, 'tienda', question), alone);
  assert.deepEqual(await index.idf(groups, 'tienda'), idfAlone);
  // Over the whole index the weights did change: the space's own counts are what kept them.
  assert.ok((await index.idf(groups))[0]! < idfAlone[0]!);
});

test("a space's word counts follow its documents once it has grown", async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  await seedDocument(db, index, 'tienda', 'faq.md', TIENDA);
  const groups = queryTermGroups('garantía');
  const before = (await index.idf(groups, 'tienda'))[0]!;
  await seedDocument(
    db,
    index,
    'tienda',
    'garantias.md',
    Array.from({ length: 20 }, (_, i) => ({ text: `Garantía del modelo ${i}: dos años.` })),
  );
  assert.ok((await index.idf(groups, 'tienda'))[0]! < before, 'a word now in most passages weighs less');
});

test('passages holding more of the rarer question words rank first, and scores tell them apart', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  await seedDocument(db, index, 'tienda', 'faq.md', TIENDA);
  const hits = await index.search('tienda', 'envío gratuito península', 5);
  assert.match(hits[0]!.text, /gratuito a la península/);
  assert.ok(hits[0]!.bm25 > hits[1]!.bm25, 'the passage with every word scores above one with a single word');
  assert.deepEqual(
    hits.map((h) => h.rank),
    hits.map((_, i) => i + 1),
  );
});

test('passages scoring alike rank in the order they were indexed, whatever other spaces hold', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const twin = 'La garantía de los muebles es de tres años desde la entrega.';
  await seedDocument(db, index, 'tienda', 'garantia.md', [{ text: twin }, { text: twin }, { text: twin }]);
  const order = async () => (await index.search('tienda', 'garantía muebles', 5)).map((h) => h.id);
  const first = await order();
  assert.deepEqual(
    first,
    [...first].sort((a, b) => a - b),
  );
  await seedDocument(
    db,
    index,
    'vecino',
    'manual.md',
    Array.from({ length: 200 }, (_, i) => ({ text: `Muebles ${i}: la garantía cubre piezas.` })),
  );
  assert.deepEqual(await order(), first);
});

test('group frequencies count a word once per group, in any language searched, and headings weigh more', async () => {
  const groups = queryTermGroups('instalar paquetes', ['es', 'en']);
  // "installing" meets "instalar" through its English stem; "packages" is another word than "paquetes".
  assert.deepEqual(
    groupFrequencies('Para instalar un paquete, instala sus paquetes con apt. Installing packages', groups, [
      'es',
      'en',
    ]),
    [3, 2],
  );
  const input = { groups, df: [1, 1], passages: 10, meanLength: 8, languages: ['es', 'en'], headingWeight: 2 };
  const inHeading = spaceBm25({ text: 'Con apt se instala todo.', headings: ['Paquetes'] }, input);
  const inText = spaceBm25({ text: 'Con apt se instala todo.', headings: ['Paquetes'].map(() => 'Apt') }, input);
  assert.ok(inHeading > inText, 'a question word in the heading path adds to the passage');
  const short = spaceBm25({ text: 'Paquetes: se instalan con apt.', headings: [] }, input);
  const long = spaceBm25(
    { text: `Paquetes: se instalan con apt. ${'Texto que no trata del tema pedido. '.repeat(8)}`, headings: [] },
    input,
  );
  assert.ok(short > long, 'the same words in a shorter passage weigh more');
  assert.equal(spaceBm25({ text: 'Nada que ver.', headings: [] }, input), 0);
});

test('the form the question uses scores a little more than another word of its stem', () => {
  const question = '¿Por qué está instalado este paquete?';
  const groups = queryTermGroups(question, ['es']);
  const input = {
    groups,
    df: groups.map(() => 3),
    passages: 10,
    meanLength: 8,
    languages: ['es'] as const,
    headingWeight: 2,
    exactWords: exactQueryWords(question, ['es']),
  };
  const asked = spaceBm25({ text: 'Saber por qué un paquete está instalado.', headings: [] }, input);
  const relative = spaceBm25({ text: 'Saber por qué un paquete se instaló.', headings: [] }, input);
  assert.ok(relative > 0, 'a relative of the stem still counts');
  assert.ok(asked > relative, 'the very form asked counts more');
  // Without the question's forms (or with a list that does not fit its groups) the stems alone decide: a tie.
  const stemsOnly = { ...input, exactWords: [] };
  assert.equal(
    spaceBm25({ text: 'Saber por qué un paquete está instalado.', headings: [] }, stemsOnly),
    spaceBm25({ text: 'Saber por qué un paquete se instaló.', headings: [] }, stemsOnly),
  );
  // Typed without accents, the form still meets the accented text ("instalacion" / "instalación").
  const folded = exactQueryWords('instalacion del paquete', ['es']);
  assert.deepEqual(folded, ['instalacion', 'paquete']);
  assert.ok(
    spaceBm25(
      { text: 'La instalación del paquete.', headings: [] },
      { ...input, groups: queryTermGroups('instalacion del paquete', ['es']), df: [3, 3], exactWords: folded },
    ) >
      spaceBm25(
        { text: 'Instalar el paquete.', headings: [] },
        { ...input, groups: queryTermGroups('instalacion del paquete', ['es']), df: [3, 3], exactWords: folded },
      ),
  );
});

test('a part of an identifier counts only in its very form, not for another word of its stem', () => {
  const question = 'repositorios en sources.list';
  const groups = queryTermGroups(question, ['es', 'en']);
  const input = {
    groups,
    df: groups.map(() => 3),
    passages: 10,
    meanLength: 8,
    languages: ['es', 'en'] as const,
    headingWeight: 2,
    exactWords: exactQueryWords(question, ['es', 'en']),
    literal: literalWords(question, ['es', 'en']),
  };
  assert.deepEqual(input.literal, [false, true, true]);
  const names = spaceBm25({ text: 'Añada el repositorio a sources.list.', headings: [] }, input);
  const lists = spaceBm25({ text: 'Añada el repositorio a la lista de sources.', headings: [] }, input);
  assert.ok(names > lists, 'the file named outranks "lista" merely sharing the stem of "list"');
  // Spanish "lista" and English "list" share a stem: without the identifier's flags both passages tie on "list".
  const stemmed = { ...input, literal: [false, false, false] };
  assert.equal(
    spaceBm25({ text: 'Añada el repositorio a sources.list.', headings: [] }, { ...stemmed, exactWords: [] }),
    spaceBm25({ text: 'Añada el repositorio a sources.lista.', headings: [] }, { ...stemmed, exactWords: [] }),
  );
  assert.equal(
    spaceBm25({ text: 'Una lista.', headings: [] }, input),
    0,
    'a literal part is never met through its stem',
  );
  // Words outside identifiers keep their stems: "repositorio" meets "repositorios".
  assert.ok(spaceBm25({ text: 'Un repositorio.', headings: [] }, input) > 0);
  assert.ok(spaceBm25({ text: 'Ver sources.list.', headings: ['Fuentes'] }, input) > 0);
});
