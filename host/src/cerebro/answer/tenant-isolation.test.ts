import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Retriever } from '../index/retriever.js';
import { migratedDb } from '../testing/fixtures.js';
import { seedDocument, sqlitePassageIndex } from '../testing/seed.js';
import { ExtractiveAnswerer } from './extractive.js';
import type { Answer } from './types.js';

const TIENDA = [
  {
    headings: ['Devoluciones'],
    text: 'Los clientes pueden devolver un producto en un plazo de 30 días desde la compra. El reembolso se hace con el mismo medio de pago.',
  },
  {
    headings: ['Envíos'],
    text: 'Los pedidos se envían en 24 horas laborables. El envío es gratuito a partir de 50 euros.',
  },
  { headings: ['Horario de atención'], text: 'Atendemos de lunes a viernes de 9 a 18 horas por teléfono y correo.' },
  {
    headings: ['Garantía'],
    text: 'La garantía de los productos electrónicos es de dos años. Para reclamarla hace falta la factura.',
  },
];

const QUESTIONS = [
  '¿En cuántos días puedo devolver un producto?',
  '¿Cuánto dura la garantía de los productos?',
  '¿Cuál es el horario de atención?',
  '¿Hacéis envíos gratis?',
];

/** What a client sees of an answer: its text, whether it was found, and each source's `relevancia` and BM25. */
const seen = (a: Answer) => ({
  text: a.text,
  found: a.found,
  sources: a.sources.map((s) => ({ passageId: s.passageId, score: s.score, bm25: s.bm25 })),
});

test("a space's answers and their relevance do not move when another space gets many documents", async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  const answerer = new ExtractiveAnswerer(index, new Retriever(index));
  await seedDocument(db, index, 'tienda', 'faq.md', TIENDA);
  const before = [];
  for (const question of QUESTIONS) before.push(seen(await answerer.answer({ space: 'tienda', question })));
  assert.ok(
    before.some((a) => a.found),
    'the shop answers some of its questions',
  );

  // A neighbour tenant whose hundreds of passages use the shop's question words everywhere: counted over the whole
  // index, these words would look common and weigh less in the shop's coverage, its decision and its relevance.
  await seedDocument(
    db,
    index,
    'vecino',
    'catalogo.md',
    Array.from({ length: 400 }, (_, i) => ({
      headings: ['Catálogo'],
      text: `El producto ${i} tiene garantía; se puede devolver en días laborables y el envío y el horario de atención se indican en la factura.`,
    })),
  );
  for (const [i, question] of QUESTIONS.entries())
    assert.deepEqual(seen(await answerer.answer({ space: 'tienda', question })), before[i], question);
});
