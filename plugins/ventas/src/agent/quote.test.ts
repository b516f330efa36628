import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addToQuote, computeQuote, removeFromQuote } from './quote.js';
import { formatMoney, parseAmount } from '@cerebro/sdk';
import type { Product } from './catalog.js';
import { catalog } from './test-fixtures.js';

const products = catalog();
const byId = (id: string) => products.find((p) => p.id === id)!;

test('totals are computed in cents: no floating point drift', () => {
  const cents: Product[] = [
    { id: 'a', nombre: 'A', descripcion: '', precio: 0.1, moneda: 'EUR', stock: 10 },
    { id: 'b', nombre: 'B', descripcion: '', precio: 0.2, moneda: 'EUR', stock: 10 },
  ];
  const q = computeQuote(
    [
      { productId: 'a', cantidad: 3 },
      { productId: 'b', cantidad: 1 },
    ],
    cents,
    null,
  );
  assert.equal(q.subtotal, 0.5);
  assert.equal(formatMoney(q.total, 'EUR'), '0,50 EUR');
});

test('one shipment per quote, priced at the highest shipping cost for the city', () => {
  const lines = [
    { productId: 'zap-run', cantidad: 1 },
    { productId: 'medias', cantidad: 2 },
  ];
  const q = computeQuote(lines, products, 'bogota');
  assert.deepEqual(q.envio, { ciudad: 'bogota', costo: 10000 });
  assert.equal(q.total, 250000 + 30000 + 10000);
  const med = computeQuote(lines, products, 'Medellín');
  assert.equal(med.envio, null, 'medias do not ship to Medellín');
  assert.deepEqual(
    med.sinEnvio.map((p) => p.id),
    ['medias'],
  );
  assert.equal(med.total, 280000);
});

test('adding respects stock (cumulatively), refuses out-of-stock and mixed currencies', () => {
  let r = addToQuote([], products, byId('zap-run'), 2);
  assert.ok(r.ok);
  const lines = r.ok ? r.lines : [];
  r = addToQuote(lines, products, byId('zap-run'), 2);
  assert.deepEqual(r, { ok: false, motivo: 'stock_insuficiente', disponible: 3, yaCotizado: 2 });
  assert.deepEqual(addToQuote(lines, products, byId('cam-azul'), 1), { ok: false, motivo: 'agotado' });
  const eur: Product = { id: 'x', nombre: 'X', descripcion: '', precio: 1, moneda: 'EUR', stock: 1 };
  assert.deepEqual(addToQuote(lines, [...products, eur], eur, 1), {
    ok: false,
    motivo: 'moneda',
    monedaCotizacion: 'COP',
  });
  assert.deepEqual(removeFromQuote(lines, 'zap-run'), []);
  assert.deepEqual(computeQuote([{ productId: 'gone', cantidad: 1 }], products, null).retirados, ['gone']);
});

test('money is written and read back the Spanish way', () => {
  assert.equal(formatMoney(1234567.5, 'COP'), '1.234.567,50 COP');
  assert.equal(formatMoney(999, 'EUR'), '999 EUR');
  for (const [s, n] of [
    ['45.000', 45000],
    ['45000', 45000],
    ['12,50', 12.5],
    ['12.5', 12.5],
    ['1.234,50', 1234.5],
    ['1,500', 1500],
  ] as const) {
    assert.equal(parseAmount(s), n, s);
  }
  assert.equal(parseAmount('12.3456'), null);
});
