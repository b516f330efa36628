import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFigures, dropUnbackedSentences, factsFrom } from './figures.js';
import { computeQuote } from './quote.js';
import { catalog } from './test-fixtures.js';

const products = catalog();
const quote = computeQuote(
  [
    { productId: 'zap-run', cantidad: 2 },
    { productId: 'medias', cantidad: 1 },
  ],
  products,
  'Bogotá',
);
const facts = factsFrom(products, quote);
const kinds = (text: string) => checkFigures(text, facts).map((v) => v.tipo);

test('catalog prices, shipping, quote amounts and real stock pass in any common writing', () => {
  for (const ok of [
    'El precio es 250.000 COP.',
    'Cuesta $250.000.',
    'Son $ 250000 pesos.',
    'Envío a Bogotá: 10.000 COP.',
    'Total: 525.000 COP',
    'Subtotal 515.000 COP',
    '2 x Zapatillas Runner: 500.000 COP',
    'Tenemos 3 unidades de Zapatillas Runner.',
    'Quedan 40 unidades de Medias deportivas.',
    'Abrimos de 9 a 18 horas.',
    'Viene con 2 USB.',
    'En Bogotá hay 2 sedes.',
  ])
    assert.deepEqual(kinds(ok), [], ok);
});

test('invented prices, totals, shipping, stock and any discount fail', () => {
  assert.deepEqual(kinds('Las zapatillas cuestan 199.000 COP.'), ['dinero']);
  assert.deepEqual(kinds('Total: 530.000 COP'), ['dinero']);
  assert.deepEqual(kinds('El envío sale en 7.500 pesos'), ['dinero']);
  assert.deepEqual(kinds('Cuesta 250.000 EUR'), ['dinero'], 'right number, wrong currency');
  assert.deepEqual(kinds('Tenemos 12 unidades de Zapatillas Runner.'), ['stock']);
  assert.deepEqual(kinds('Hay 12 zapatillas runner esperándote.'), ['stock']);
  assert.deepEqual(kinds('Stock: 7'), ['stock']);
  assert.deepEqual(kinds('Quedan 40 unidades de Zapatillas Runner.'), ['stock'], "another product's stock");
  assert.deepEqual(kinds('Hoy con 15% de descuento'), ['descuento']);
  assert.deepEqual(kinds('te hago un 10 por ciento menos'), ['descuento']);
});

test('correction drops only the sentences with unbacked figures', () => {
  const text = 'Las Zapatillas Runner son livianas. Cuestan 199.000 COP.\nTenemos 3 unidades de Zapatillas Runner.';
  assert.equal(
    dropUnbackedSentences(text, facts),
    'Las Zapatillas Runner son livianas.\nTenemos 3 unidades de Zapatillas Runner.',
  );
  assert.equal(dropUnbackedSentences('Cuestan 1 COP.', facts), null);
});
