import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CatalogFact } from '../model.js';
import { unsupportedFigures } from './figures.js';
import { formatMoney, parseAmount } from '@cerebro/sdk';

const CATALOG: CatalogFact[] = [
  { id: 'a', nombre: 'Zapatilla Trail', descripcion: '', precio: 289900, moneda: 'COP', stock: 14 },
  { id: 'b', nombre: 'Gorra', descripcion: '', precio: 12.5, moneda: 'EUR', stock: 3 },
];

test('money is written and read back the way ventas writes it', () => {
  assert.equal(formatMoney(289900, 'COP'), '289.900 COP');
  assert.equal(formatMoney(12.5, 'EUR'), '12,50 EUR');
  assert.equal(parseAmount('289.900'), 289900);
  assert.equal(parseAmount('12,50'), 12.5);
});

test('prices the catalog holds pass, in any usual writing; others fail naming the figure', () => {
  const sources = { catalog: CATALOG, texts: [] };
  assert.deepEqual(unsupportedFigures('Desde 289.900 COP, o $289.900, y la gorra a 12,50 EUR (12,50 €).', sources), []);
  assert.deepEqual(
    unsupportedFigures('Hoy 249.900 COP', sources).map((v) => v.texto),
    ['249.900 COP'],
  );
  assert.deepEqual(
    unsupportedFigures('Gorra a 289.900 EUR', sources).map((v) => v.texto),
    ['289.900 EUR'],
    'the right amount in the wrong currency',
  );
});

test("other numbers need a source: stock, the caller's text or a document fact", () => {
  const sources = { catalog: CATALOG, texts: ['La garantía cubre 6 meses.', 'Envío en 48 horas'] };
  assert.deepEqual(unsupportedFigures('Quedan 3 unidades, 6 meses de garantía, envío en 48 horas.', sources), []);
  assert.deepEqual(
    unsupportedFigures('Un 30% de descuento y 2 años de garantía.', sources).map((v) => v.texto),
    ['30', '2'],
  );
  assert.deepEqual(
    unsupportedFigures('Un 30% de descuento', sources, { onlyMoney: true }),
    [],
    'validar checks prices only',
  );
  assert.deepEqual(
    unsupportedFigures('Incluye 3 USB', { catalog: CATALOG, texts: [] }),
    [],
    'a code that is no currency is no price (3 is a stock)',
  );
});

test('a product shown without its price cannot have one on the page', () => {
  const hidden = [{ ...CATALOG[0], sin_precio: true }];
  assert.equal(unsupportedFigures('289.900 COP', { catalog: hidden, texts: [] }).length, 1);
});

test('a name with digits (the brand, a product) is quoted whole, not read as a figure; its digits alone still need a source', () => {
  const sources = { catalog: CATALOG, texts: [], names: ['Tienda 24 Horas', '3M', 'Forever 21', 'Zapatilla Trail'] };
  assert.deepEqual(
    unsupportedFigures(
      'Compra en TIENDA 24 HORAS, con cinta 3M y ropa de Forever\u00a021. Quedan 3 unidades.',
      sources,
    ),
    [],
  );
  assert.deepEqual(
    unsupportedFigures('Abierto 24 horas al día, 21 días de garantía.', sources).map((v) => v.texto),
    ['24', '21'],
    'the same digits outside the name are figures',
  );
  assert.deepEqual(
    unsupportedFigures('Llevamos 23M pedidos.', sources).map((v) => v.texto),
    ['23'],
    'a name inside a longer number is not the name',
  );
  assert.deepEqual(
    unsupportedFigures('Solo 24 horas', { catalog: CATALOG, texts: [], names: ['24'] }).map((v) => v.texto),
    ['24'],
    'a name with no letter is a figure, never a name',
  );
  assert.deepEqual(
    unsupportedFigures('Tienda 24 Horas: 249.900 COP', sources).map((v) => v.texto),
    ['249.900 COP'],
    'prices are checked as ever',
  );
});
