// The composer per question kind and per unit structure, over passages chunked from typed blocks as indexing does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TextBlock } from '../extract/types.js';
import { Retriever } from '../index/retriever.js';
import { chunkBlocks } from '../text/chunker.js';
import { migratedDb } from '../testing/fixtures.js';
import { seedDocument, sqlitePassageIndex } from '../testing/seed.js';
import { ExtractiveAnswerer } from './extractive.js';

const H = ['Manual del sistema'];
const p = (text: string, section: string): TextBlock => ({ text, headings: [...H, section] });
const code = (text: string, section: string): TextBlock => ({ kind: 'code', text, headings: [...H, section] });
const item = (text: string, section: string): TextBlock => ({ kind: 'list-item', text, headings: [...H, section] });
const row = (cells: string[], section: string): TextBlock => ({
  kind: 'table-row',
  text: cells.join(' | '),
  headings: [...H, section],
  table: { cells, header: ['orden', 'acción'], caption: 'Órdenes de red' },
});

const MANUAL: TextBlock[] = [
  p('Un paquete virtual es un nombre genérico que varios paquetes reales pueden proporcionar.', 'Paquetes'),
  p('Para instalar un paquete descargado como archivo .deb, ejecute la siguiente orden:', 'Paquetes'),
  code('# dpkg -i paquete.deb', 'Paquetes'),
  p('Después se resuelven las dependencias que falten con apt.', 'Paquetes'),
  p('Para compilar el núcleo desde sus fuentes ejecute lo siguiente:', 'Núcleo'),
  code('$ make menuconfig\n$ make -j4 deb-pkg', 'Núcleo'),
  p('Los repositorios de APT se definen en el archivo /etc/apt/sources.list del sistema.', 'Repositorios'),
  p('El sistema guarda los paquetes descargados durante 30 días en la caché local.', 'Caché'),
  p('Las áreas del archivo de Debian son las siguientes:', 'Áreas'),
  item('main: software libre', 'Áreas'),
  item('contrib: libre pero depende de software no libre', 'Áreas'),
  item('non-free: software no libre', 'Áreas'),
  p('Tabla 3.1. Interfaces de red y sus direcciones IP', 'Red'),
  row(['`ip addr show`', 'muestra las direcciones de las interfaces de red'], 'Red'),
  row(['`ip route show`', 'muestra la tabla de encaminamiento'], 'Red'),
  row(['`ping -c 3 host`', 'comprueba si un equipo responde en la red'], 'Red'),
  p('Para crear una copia de respaldo siga estos pasos:', 'Respaldo'),
  item('1. Abra el menú Sistema.', 'Respaldo'),
  item('2. Pulse el botón Crear.', 'Respaldo'),
  item('3. Elija el disco de destino.', 'Respaldo'),
  p('Se puede actualizar el sistema sin conexión a Internet usando un DVD como repositorio.', 'Sin red'),
];

async function setup() {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  await seedDocument(
    db,
    index,
    'e',
    'manual.html',
    chunkBlocks(MANUAL).map((x) => ({ text: x.text, headings: x.headings })),
  );
  await seedDocument(db, index, 'e', 'notas.md', [
    {
      text: 'Las dependencias de un paquete se instalan con apt. Los paquetes se instalan en el sistema con cuidado.',
      headings: ['Notas'],
    },
  ]);
  await seedDocument(db, index, 'e', 'opiniones.txt', [
    { text: 'Con este equipo por fin veo y hago lo que quiero, y siempre sé cómo.' },
  ]);
  return new ExtractiveAnswerer(index, new Retriever(index));
}

test('how-to: the command verbatim in backticks, with the sentence that introduces it', async () => {
  const answer = await (await setup()).answer({ space: 'e', question: '¿Cómo instalo un paquete .deb que descargué?' });
  assert.equal(answer.found, true);
  assert.match(
    answer.text,
    /^Para instalar un paquete descargado como archivo \.deb, ejecute la siguiente orden: `# dpkg -i paquete\.deb` \[1\]/,
  );
});

test('how-to over a code block: every line verbatim in a fenced block, after its introduction', async () => {
  const answer = await (await setup()).answer({ space: 'e', question: '¿Cómo compilo el núcleo desde las fuentes?' });
  assert.match(
    answer.text,
    /^Para compilar el núcleo desde sus fuentes ejecute lo siguiente:\n```\n\$ make menuconfig\n\$ make -j4 deb-pkg\n```\n\[1\]/,
  );
});

test('how-to over a table: the row with its header, never a run of cells', async () => {
  const answer = await (await setup()).answer({
    space: 'e',
    question: '¿Qué orden muestra la tabla de encaminamiento?',
  });
  // Another row of the table may follow (rows are told apart by their cells), each with its header.
  assert.match(answer.text, /orden `ip route show` — acción: muestra la tabla de encaminamiento, según la tabla/);
  assert.doesNotMatch(answer.text, /\|/);
});

test('how-to over steps: the announcing sentence with every step, in order', async () => {
  const answer = await (await setup()).answer({ space: 'e', question: '¿Cómo creo una copia de respaldo?' });
  assert.match(
    answer.text,
    /^Para crear una copia de respaldo siga estos pasos: Abra el menú Sistema; Pulse el botón Crear; Elija el disco de destino \[1\]\.$/,
  );
});

test('definition: the defining sentence', async () => {
  const answer = await (await setup()).answer({ space: 'e', question: '¿Qué es un paquete virtual?' });
  assert.match(answer.text, /^Un paquete virtual es un nombre genérico/);
});

test('where: the sentence that names the path', async () => {
  const answer = await (await setup()).answer({ space: 'e', question: '¿Dónde se definen los repositorios de APT?' });
  assert.match(answer.text, /\/etc\/apt\/sources\.list/);
});

test('quantity: the sentence with the number', async () => {
  const answer = await (await setup()).answer({
    space: 'e',
    question: '¿Cuántos días se guardan los paquetes descargados?',
  });
  assert.match(answer.text, /30 días/);
});

test('list: the announcing sentence with its items', async () => {
  const answer = await (await setup()).answer({ space: 'e', question: '¿Cuáles son las áreas del archivo de Debian?' });
  assert.match(
    answer.text,
    /Las áreas del archivo de Debian son las siguientes: main: software libre; contrib: libre pero depende de software no libre; non-free: software no libre \[1\]\./,
  );
});

test('yes/no: the sentence that settles it', async () => {
  const answer = await (await setup()).answer({
    space: 'e',
    question: '¿Puedo actualizar el sistema sin conexión a Internet?',
  });
  assert.match(answer.text, /^Se puede actualizar el sistema sin conexión a Internet usando un DVD/);
});

test('relevance counts content words only: question-form words neither block nor carry an answer', async () => {
  const answerer = await setup();
  // Every content word is in the passage; "cómo", "puedo", "hacer" are not: still answered.
  const answered = await answerer.answer({
    space: 'e',
    question: '¿Cómo puedo hacer para ver las direcciones de las interfaces de red?',
  });
  assert.equal(answered.found, true);
  assert.match(answered.text, /`ip addr show`/);
  assert.doesNotMatch(
    answered.text,
    /Interfaces de red y sus direcciones IP/,
    'a table title is a fragment, not an answer',
  );
  // A passage sharing only the question-form words ("veo", "hago", "quiero") is not relevant: declined.
  const declined = await answerer.answer({ space: 'e', question: '¿Cómo veo y hago lo que quiero con la impresora?' });
  assert.equal(declined.found, false);
});

test('fuentes: cited passages first, numbered as in the text, then the other relevant passages marked uncited', async () => {
  const answer = await (await setup()).answer({
    space: 'e',
    question: '¿Cómo se instalan las dependencias de un paquete?',
    options: { maxSentences: 1 },
  });
  assert.equal(answer.found, true);
  const cited = answer.sources.filter((s) => s.cited);
  assert.deepEqual(
    cited.map((s) => s.n),
    [1],
  );
  assert.match(answer.text, /\[1\]/);
  assert.doesNotMatch(answer.text, /\[2\]/);
  assert.ok(answer.sources.length > 1, 'the other relevant passage is listed');
  assert.deepEqual(
    answer.sources.map((s) => s.n),
    answer.sources.map((_, i) => i + 1),
  );
  assert.deepEqual(
    answer.sources.map((s) => s.cited),
    [true, ...answer.sources.slice(1).map(() => false)],
  );
});

test('how-to: a command a little below the passages read is still found, but answering is decided on those passages', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  // Six passages repeat the question's words in prose; the command sits in a seventh, under a heading that names it.
  const prose = Array.from({ length: 6 }, (_, i) => ({
    text: `La impresora de red ${i} se configura en la oficina; configurar la impresora de red lleva tiempo y la impresora de red ${i} queda lista.`,
    headings: [`Oficina ${i}`],
  }));
  await seedDocument(db, index, 'e', 'notas.md', prose);
  await seedDocument(db, index, 'e', 'manual.md', [
    {
      text: 'Para añadirla ejecute lo siguiente:\n\n$ lpadmin -p oficina -E -v ipp://impresora/ipp',
      headings: ['Configurar una impresora de red'],
    },
  ]);
  const answerer = new ExtractiveAnswerer(index, new Retriever(index));
  // Prose without a command is weak evidence for a how-to (the decision model says so): a lenient client answers.
  const howTo = await answerer.answer({
    space: 'e',
    question: '¿Cómo configuro la impresora de red?',
    options: { minRelevance: 0.05 },
  });
  assert.equal(howTo.found, true);
  assert.match(howTo.text, /`\$ lpadmin -p oficina -E -v ipp:\/\/impresora\/ipp`/);
  // The decision is taken on the first passages only: none of them holds a command, and a client asking for
  // strong evidence is declined although the command further down would have answered.
  const strict = await answerer.answer({
    space: 'e',
    question: '¿Cómo configuro la impresora de red?',
    options: { minRelevance: 0.99 },
  });
  assert.equal(strict.found, false);
  const definition = await answerer.answer({ space: 'e', question: '¿Qué es una impresora de red?' });
  assert.doesNotMatch(definition.text, /lpadmin/, 'other kinds of question read only the first passages');
});

/** One space with one document of the given passages. */
async function answererOver(passages: { text: string; headings?: string[] }[]) {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  await seedDocument(db, index, 'e', 'guia.md', passages);
  return new ExtractiveAnswerer(index, new Retriever(index));
}

test('yes/no without a question word: the unit stating the condition, not the one merely sharing its words', async () => {
  const answerer = await answererOver([
    {
      headings: ['Instantáneas'],
      text: 'Las instantáneas del sistema de archivos guardan el estado del sistema de archivos en un momento dado.\n\nLas instantáneas del sistema de archivos se crean cada hora.\n\nEsta funcionalidad requiere un sistema de archivos Btrfs.',
    },
  ]);
  const answer = await answerer.answer({
    space: 'e',
    question: '¿Las instantáneas funcionan con cualquier sistema de archivos?',
    options: { maxSentences: 1 },
  });
  // The condition, read after the sentence it continues ("Esta funcionalidad…"), never the sharing sentence alone.
  assert.match(answer.text, /se crean cada hora\. Esta funcionalidad requiere un sistema de archivos Btrfs/);
});

test('where, asked as "¿en qué dirección…?": the sentence with the address', async () => {
  const answerer = await answererOver([
    {
      headings: ['Roundcube', 'Usar Roundcube'],
      text: 'Roundcube es un cliente de correo web con una dirección propia para cada usuario.\n\nTras instalar Roundcube se puede acceder a él en https://servidor/roundcube desde el navegador.',
    },
  ]);
  const answer = await answerer.answer({ space: 'e', question: '¿En qué dirección abro Roundcube?' });
  assert.equal(answer.found, true, '"abro" is a light verb: it does not count against relevance');
  assert.match(answer.text, /https:\/\/servidor\/roundcube/);
});

test('a third unit is quoted only when it adds a question word or the shape asked for, never as filler', async () => {
  const answerer = await answererOver([
    {
      headings: ['Correo'],
      text: 'El correo se lee con el cliente web.\n\nEl cliente web de correo es ligero.\n\nEl cliente de correo web funciona en el navegador.\n\nEl cliente web de correo guarda los adjuntos en el servidor.',
    },
  ]);
  const filler = await answerer.answer({ space: 'e', question: '¿Con qué se lee el correo en el cliente web?' });
  assert.equal(filler.text.match(/\[1\]/g)?.length, 2, filler.text);
  // A list question asks for several things: its third unit is kept.
  const list = await answerer.answer({ space: 'e', question: '¿Qué características tiene el cliente web de correo?' });
  assert.equal(list.text.match(/\[1\]/g)?.length, 3, list.text);
});

/** A table row block as the extractor gives it. */
const tableRow = (cells: string[], header: string[], headings: string[], caption = ''): TextBlock => ({
  kind: 'table-row',
  text: cells.join(' | '),
  headings,
  table: { cells, header, caption },
});

test('rows of one table quoted together name the table once', async () => {
  const table = (cells: string[]) => tableRow(cells, ['orden', 'acción'], ['Red'], 'Órdenes de red');
  const blocks = chunkBlocks([
    table(['`ip addr show`', 'muestra las direcciones de red asignadas a cada una de las interfaces']),
    table([
      '`nmcli device show`',
      'lista interfaces con sus direcciones de red, pasarela y servidores DNS según NetworkManager',
    ]),
  ]);
  const answer = await (await answererOver(blocks.map((b) => ({ text: b.text, headings: b.headings })))).answer({
    space: 'e',
    question: '¿Cómo veo las direcciones de red de las interfaces?',
  });
  assert.equal(answer.text.match(/según la tabla «Órdenes de red»/g)?.length, 1, answer.text);
  assert.equal(answer.text.match(/según la tabla/g)?.length, 2, answer.text);
});

test('the sentence echoing a "how much" question is read with the next one, which holds the number', async () => {
  const answerer = await answererOver([
    {
      text: 'La guardia de fin de semana la cubre una persona del equipo de sistemas. Se paga aparte de la nómina. Compensación: 3.500 pesos por semana, más 450 pesos por hora de incidente.',
      headings: ['Guardias'],
    },
    { text: 'La guardia se pide con dos semanas de antelación a tu líder.', headings: ['Solicitudes'] },
  ]);
  const answer = await answerer.answer({
    space: 'e',
    question: '¿Cuánto se paga por la guardia de fin de semana?',
    options: { citations: false, minRelevance: 0.01 },
  });
  assert.equal(answer.found, true);
  assert.match(answer.text, /3\.500 pesos por semana/);
});

test('a sentence announcing a table is read with the row that holds the asked value', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const blocks: TextBlock[] = [
    { text: 'La empresa da más días de vacaciones que el mínimo legal desde el primer año:', headings: ['Vacaciones'] },
    {
      kind: 'table-row',
      text: '1 año | 15',
      headings: ['Vacaciones'],
      table: { cells: ['1 año', '15'], header: ['Antigüedad', 'Días'], caption: '' },
    },
    {
      kind: 'table-row',
      text: '5 años | 20',
      headings: ['Vacaciones'],
      table: { cells: ['5 años', '20'], header: ['Antigüedad', 'Días'], caption: '' },
    },
  ];
  await seedDocument(
    db,
    index,
    'e',
    'manual.html',
    chunkBlocks(blocks).map((x) => ({ text: x.text, headings: x.headings })),
  );
  const answer = await new ExtractiveAnswerer(index, new Retriever(index)).answer({
    space: 'e',
    question: '¿Cuántos días de vacaciones tengo el primer año?',
    options: { citations: false },
  });
  assert.equal(answer.found, true);
  assert.match(answer.text, /15/);
});

test('rows of one table that share their column names and values are still different rows', async () => {
  const row = (cells: string[]) => tableRow(cells, ['Día', 'Horario'], ['Horario de atención']);
  const blocks = chunkBlocks([row(['Lunes a viernes', '10:00–14:00 y 16:30–20:30']), row(['Sábados', '10:00–14:00'])]);
  const answer = await (await answererOver(blocks.map((b) => ({ text: b.text, headings: b.headings })))).answer({
    space: 'e',
    question: '¿Cuál es vuestro horario?',
    options: { citations: false },
  });
  assert.equal(answer.found, true);
  assert.match(answer.text, /Lunes a viernes — Horario: 10:00–14:00 y 16:30–20:30/);
  assert.match(answer.text, /Sábados — Horario: 10:00–14:00/);
});

test("a short sentence is not read with the FAQ's next question, which opens another topic", async () => {
  const answerer = await answererOver([
    {
      text: 'Aceptamos Bizum para pedidos de hasta 1.000 €. No aceptamos contra reembolso. ¿Puedo pagar a plazos? Sí, con nuestra financiera.',
      headings: ['Formas de pago'],
    },
  ]);
  const answer = await answerer.answer({
    space: 'e',
    question: '¿Aceptáis pago contra reembolso?',
    options: { citations: false, minRelevance: 0.01 },
  });
  assert.equal(answer.found, true);
  assert.match(answer.text, /No aceptamos contra reembolso\./);
  assert.doesNotMatch(answer.text, /plazos/);
});

test("a price list: another product's row that matches fewer of the question's words is not quoted", async () => {
  const header = ['id', 'nombre', 'precio', 'stock'];
  const blocks = chunkBlocks([
    tableRow(['FER-028', 'Ampolleta LED 9 W luz cálida', '1990', '300'], header, ['Lista de precios']),
    tableRow(['FER-031', 'Linterna LED recargable', '17990', '0'], header, ['Lista de precios']),
  ]);
  const answer = await (await answererOver(blocks.map((b) => ({ text: b.text, headings: b.headings })))).answer({
    space: 'e',
    question: '¿Cuántas ampolletas LED tienen en stock?',
    options: { citations: false },
  });
  assert.match(answer.text, /Ampolleta LED 9 W luz cálida; precio: 1990; stock: 300/);
  assert.doesNotMatch(answer.text, /Linterna/);
});
