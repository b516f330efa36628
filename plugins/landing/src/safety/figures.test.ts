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
  assert.deepEqual(unsupportedFigures('Hoy 249.900 COP', sources).map((v) => v.texto), ['249.900 COP']);
  assert.deepEqual(unsupportedFigures('Gorra a 289.900 EUR', sources).map((v) => v.texto), ['289.900 EUR'], 'the right amount in the wrong currency');
});

test('other numbers need a source: stock, the caller\'s text or a document fact', () => {
  const sources = { catalog: CATALOG, texts: ['La garantía cubre 6 meses.', 'Envío en 48 horas'] };
  assert.deepEqual(unsupportedFigures('Quedan 3 unidades, 6 meses de garantía, envío en 48 horas.', sources), []);
  assert.deepEqual(unsupportedFigures('Un 30% de descuento y 2 años de garantía.', sources).map((v) => v.texto), ['30', '2']);
  assert.deepEqual(unsupportedFigures('Un 30% de descuento', sources, { onlyMoney: true }), [], 'validar checks prices only');
  assert.deepEqual(unsupportedFigures('Incluye 3 USB', { catalog: CATALOG, texts: [] }), [], 'a code that is no currency is no price (3 is a stock)');
});

test('a product shown without its price cannot have one on the page', () => {
  const hidden = [{ ...CATALOG[0], sin_precio: true }];
  assert.equal(unsupportedFigures('289.900 COP', { catalog: hidden, texts: [] }).length, 1);
});
