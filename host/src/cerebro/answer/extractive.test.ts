import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Retriever } from '../index/retriever.js';
import { migratedDb } from '../testing/fixtures.js';
import { seedDocument, sqlitePassageIndex } from '../testing/seed.js';
import { ExtractiveAnswerer } from './extractive.js';
import type { AnswerEvent } from './types.js';

async function setup() {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  await seedDocument(db, index, 'tienda', 'politicas.pdf', [
    {
      page: 3,
      text: 'Política de devoluciones. Los clientes pueden devolver un producto en un plazo de 30 días desde la compra. El reembolso se hace con el mismo medio de pago.',
    },
    {
      page: 5,
      text: 'Envíos. Los pedidos se envían en 24 horas laborables. El envío es gratuito a partir de 50 euros.',
    },
    { page: 7, text: 'Horario de atención. Atendemos de lunes a viernes de 9 a 18 horas por teléfono y correo.' },
  ]);
  await seedDocument(db, index, 'tienda', 'faq.md', [
    {
      headings: ['Preguntas frecuentes', 'Garantía'],
      text: 'La garantía de los productos electrónicos es de dos años. Para reclamarla hace falta la factura.',
    },
  ]);
  return { index, answerer: new ExtractiveAnswerer(index, new Retriever(index)) };
}

test('answers with the sentences that hold the answer, citing document, passage and page', async () => {
  const { answerer } = await setup();
  const answer = await answerer.answer({ space: 'tienda', question: '¿En cuántos días puedo devolver un producto?' });
  assert.equal(answer.found, true);
  assert.equal(answer.engine, 'extractive');
  assert.match(answer.text, /plazo de 30 días/);
  assert.doesNotMatch(answer.text, /lunes a viernes|gratuito/);
  assert.match(answer.text, /\[1\]/);
  const [source] = answer.sources;
  assert.equal(source?.n, 1);
  assert.equal(source?.document, 'politicas.pdf');
  assert.equal(source?.page, 3);
  assert.ok(source!.score > 0.5 && source!.score <= 1);
  assert.ok(source!.passageId > 0);
});

test('a heading path is reported for documents that have headings', async () => {
  const { answerer } = await setup();
  const answer = await answerer.answer({ space: 'tienda', question: '¿Cuál es la garantía de los productos?' });
  assert.equal(answer.found, true);
  assert.match(answer.text, /dos años/);
  assert.equal(answer.sources[0]?.heading, 'Preguntas frecuentes › Garantía');
  assert.equal(answer.sources[0]?.page, null);
});

test('says plainly, with the configured text, when the documents do not hold the answer', async () => {
  const { answerer } = await setup();
  const noAnswerText = 'Eso no aparece en nuestros documentos.';
  for (const question of ['¿Cuál es la capital de Mongolia?', '¿Qué receta lleva el gazpacho?', '???']) {
    const answer = await answerer.answer({ space: 'tienda', question, options: { noAnswerText } });
    assert.equal(answer.found, false, question);
    assert.equal(answer.text, noAnswerText);
    assert.deepEqual(answer.sources, []);
  }
});

test('a question that only brushes a passage is below the relevance threshold', async () => {
  const { answerer } = await setup();
  // "productos" appears, but the topic (precio, Mongolia) does not: it must not answer with unrelated sentences.
  const answer = await answerer.answer({ space: 'tienda', question: '¿Qué precio tienen los productos en Mongolia?' });
  assert.equal(answer.found, false);
  // minRelevance is the decision model's probability: a client may accept far weaker evidence.
  const lenient = await answerer.answer({
    space: 'tienda',
    question: '¿Qué precio tienen los productos en Mongolia?',
    options: { minRelevance: 0.005 },
  });
  assert.equal(lenient.found, true);
});

test('answers only from the asking space', async () => {
  const { answerer } = await setup();
  const answer = await answerer.answer({
    space: 'otra-tienda',
    question: '¿En cuántos días puedo devolver un producto?',
  });
  assert.equal(answer.found, false);
});

test('every sentence of the answer is copied from a source passage', async () => {
  const { answerer, index } = await setup();
  const answer = await answerer.answer({
    space: 'tienda',
    question: 'envío gratuito pedidos',
    options: { citations: false },
  });
  assert.equal(answer.found, true);
  const passages = (await Promise.all(answer.sources.map((s) => index.passage('tienda', s.passageId))))
    .map((p) => p!.text)
    .join(' ');
  for (const sentence of answer.text.split(/(?<=\.)\s+/)) assert.ok(passages.includes(sentence), sentence);
});

test('the stream carries progress, deltas that rebuild the text, the sources and the final answer', async () => {
  const { answerer } = await setup();
  const events: AnswerEvent[] = [];
  for await (const e of answerer.stream({ space: 'tienda', question: '¿Cuál es el horario de atención?' }))
    events.push(e);
  assert.equal(events[0]?.type, 'progress');
  const done = events.at(-1);
  assert.equal(done?.type, 'done');
  if (done?.type !== 'done') return;
  const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
  assert.equal(text, done.answer.text);
  assert.match(text, /lunes a viernes/);
  const sources = events.find((e) => e.type === 'sources');
  assert.deepEqual(sources?.type === 'sources' ? sources.sources : null, done.answer.sources);
});

test('passage lines become sentences: wrapped lines rejoin, labels and shell commands stand alone', async () => {
  const { passageSentences } = await import('./extractive.js');
  assert.deepEqual(
    passageSentences(
      'Nota\nLa línea de un PDF que se\ncorta sigue aquí. Otra frase.\n$ sudo apt update\nY después se\ninstala.',
    ),
    [
      'Nota',
      'La línea de un PDF que se corta sigue aquí.',
      'Otra frase.',
      '$ sudo apt update',
      'Y después se instala.',
    ],
  );
});

test('a short follow-up question is answered in the context of the previous one', async () => {
  const { answerer } = await setup();
  const followUp = await answerer.answer({
    space: 'tienda',
    question: '¿Y por teléfono?',
    history: [
      { role: 'user', content: '¿Cuál es el horario de atención?' },
      { role: 'assistant', content: 'De lunes a viernes.' },
    ],
  });
  assert.equal(followUp.found, true);
  assert.match(followUp.text, /lunes a viernes de 9 a 18 horas por teléfono/);
  assert.equal(followUp.sources[0]?.page, 7);
});

test('sources list up to `passages` in all, however many units a list continuation or a deeper passage adds', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  await seedDocument(db, index, 'taller', 'manual.md', [
    {
      headings: ['Mantenimiento'],
      text: 'El mantenimiento de la bicicleta conviene hacerlo cada mes. Para engrasar la cadena, los pasos son los siguientes:',
    },
    {
      headings: ['Mantenimiento'],
      text: '- Limpia la cadena con un trapo seco.\n- Aplica una gota de aceite en cada eslabón.\n- Retira el aceite sobrante.',
    },
    { headings: ['Frenos'], text: 'Revisa las pastillas de freno de la bicicleta cada tres meses.' },
    { headings: ['Ruedas'], text: 'Infla las ruedas de la bicicleta cada semana a la presión del flanco.' },
    { headings: ['Cadena'], text: 'Una cadena de bicicleta dura unos 3000 kilómetros antes de cambiarla.' },
  ]);
  const answerer = new ExtractiveAnswerer(index, new Retriever(index));
  let checked = 0;
  for (const passages of [1, 2, 3])
    for (const question of [
      '¿Cómo engraso la cadena de la bicicleta?',
      '¿Cada cuánto hay que hacer el mantenimiento de la bicicleta?',
      '¿Cuántos kilómetros dura la cadena de la bicicleta?',
    ]) {
      const answer = await answerer.answer({ space: 'taller', question, options: { passages, minRelevance: 0.05 } });
      if (!answer.found) continue;
      checked++;
      const cited = answer.sources.filter((s) => s.cited).length;
      assert.ok(
        answer.sources.length <= Math.max(passages, cited),
        `${question} (pasajes ${passages}): ${answer.sources.length} fuentes, ${cited} citadas`,
      );
    }
  assert.ok(checked >= 6, `${checked} answers checked`);
});
