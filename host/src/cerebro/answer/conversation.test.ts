// Conversations through the extractive answerer: a follow-up leans on the turns before it, through a chain of
// follow-ups, and a question with a topic of its own is answered alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Retriever } from '../index/retriever.js';
import { migratedDb } from '../testing/fixtures.js';
import { seedDocument, sqlitePassageIndex } from '../testing/seed.js';
import { askedKind, askedValue, ExtractiveAnswerer } from './extractive.js';
import type { AnswerRequest, ChatTurn } from './types.js';

async function setup() {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  await seedDocument(db, index, 'taller', 'catalogo.md', [
    {
      headings: ['Catálogo', 'Sierras'],
      text: 'La sierra circular Korta de 1400 W vale 89 euros, con disco de 190 mm y guía paralela.',
    },
    {
      headings: ['Catálogo', 'Lijadoras'],
      text: 'La lijadora orbital Korta de 300 W vale 45 euros, con bolsa de polvo y diez hojas de lija.',
    },
    {
      headings: ['Catálogo', 'Lijadoras'],
      text: 'La lijadora inalámbrica Korta de 18 V vale 99 euros. Trae dos baterías de 2 Ah y un cargador rápido.',
    },
    {
      headings: ['Catálogo', 'Taladros'],
      text: 'El taladro inalámbrico Korta de 18 V vale 79 euros. Trae una batería de 4 Ah.',
    },
    {
      headings: ['Tienda', 'Disponibilidad'],
      text: 'Todo el catálogo está en stock en la tienda; lo que falte llega en 48 horas.',
    },
    {
      headings: ['Tienda', 'Horario de apertura'],
      text: 'Abrimos de lunes a viernes de 8:00 a 19:00 y los sábados de 9:00 a 13:00.',
    },
    {
      headings: ['Tienda', 'Pedidos por encargo'],
      text: 'Los pedidos por encargo se piden con 10 días de antelación en el mostrador o por correo.',
    },
  ]);
  return new ExtractiveAnswerer(index, new Retriever(index));
}

/** Asks the turns in order, each with the earlier ones as history; the answers. */
async function converse(answerer: ExtractiveAnswerer, questions: string[]) {
  const history: ChatTurn[] = [];
  const answers = [];
  for (const question of questions) {
    const request: AnswerRequest = { space: 'taller', question, history: [...history] };
    const answer = await answerer.answer(request);
    answers.push(answer);
    history.push({ role: 'user', content: question }, { role: 'assistant', content: answer.text });
  }
  return answers;
}

test('a follow-up of a follow-up takes its topic from the question the chain started with', async () => {
  const [first, , third] = await converse(await setup(), [
    '¿Cuánto vale la lijadora inalámbrica?',
    '¿y la tenéis en stock?',
    '¿cuántas baterías trae esa?',
  ]);
  assert.match(first!.text, /99 euros/);
  // Read with "¿y la tenéis en stock?" alone, the drill's battery answers as well as the sander's.
  assert.equal(third!.found, true);
  assert.match(third!.text, /dos baterías/);
  assert.equal(third!.sources[0]?.heading, 'Catálogo › Lijadoras');
});

test('an object pronoun before a first-person verb makes the turn lean on the previous one', async () => {
  const [, second] = await converse(await setup(), [
    '¿Hacéis pedidos por encargo?',
    '¿Con cuánta antelación los pido?',
  ]);
  assert.equal(second!.found, true);
  assert.match(second!.text, /10 días de antelación/);
});

test('a question with its own topic after a follow-up is answered alone, not with the previous answer', async () => {
  const [first, , third] = await converse(await setup(), [
    '¿Cuánto vale la sierra circular?',
    '¿y la lijadora orbital?',
    'Otra cosa: ¿qué horario de apertura tenéis los sábados?',
  ]);
  assert.match(first!.text, /89 euros/);
  assert.equal(third!.found, true);
  assert.match(third!.text, /9:00 a 13:00/);
  assert.doesNotMatch(third!.text, /euros/);
});

test('a turn announcing a new subject is asked without its opening words and without the turns before', async () => {
  const [, second] = await converse(await setup(), [
    '¿Cuánto vale la sierra circular?',
    'Cambiando de tema, ¿con cuánta antelación se piden los encargos?',
  ]);
  assert.equal(second!.found, true);
  assert.match(second!.text, /10 días de antelación/);
  assert.doesNotMatch(second!.text, /euros/);
});

test('a fragment asks what the question it swaps the topic of asked: its kind and the kind of value', async () => {
  const history: ChatTurn[] = [
    { role: 'user', content: '¿Dónde se guarda el nombre del equipo?' },
    { role: 'assistant', content: 'En /etc/hostname.' },
  ];
  const request: AnswerRequest = { space: 's', question: '¿y los servidores DNS?', history };
  assert.equal(askedKind(request), 'location');
  assert.equal(askedValue(request, askedKind(request)), 'place');
  const own: AnswerRequest = { space: 's', question: '¿y me lo puedo quedar?', history };
  assert.equal(askedKind(own), 'yes-no');
  assert.equal(askedValue(own, askedKind(own)), null);
});

test('a fragment after a question about hours is answered with the hours of the day it names', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  await seedDocument(db, index, 'tienda', 'tienda.md', [
    {
      headings: ['Tienda', 'Horario de la exposición'],
      text: '| Día | Horario |\n|---|---|\n| Lunes a viernes | 10:00–14:00 y 16:30–20:30 |\n| Sábados | 10:00–14:00 |\n| Domingos | Cerrado |',
    },
    { headings: ['Envíos'], text: 'Los pedidos llegan en 48 horas a la península; a las islas, en una semana.' },
  ]);
  const answerer = new ExtractiveAnswerer(index, new Retriever(index));
  const first = await answerer.answer({ space: 'tienda', question: '¿Qué horario tiene la exposición entre semana?' });
  assert.match(first.text, /16:30/);
  const second = await answerer.answer({
    space: 'tienda',
    question: '¿y los sábados?',
    history: [
      { role: 'user', content: '¿Qué horario tiene la exposición entre semana?' },
      { role: 'assistant', content: first.text },
    ],
  });
  assert.equal(second.found, true);
  assert.match(second.text, /Sábados — Horario: 10:00–14:00/);
  assert.doesNotMatch(second.text, /48 horas/);
});
