import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from './intent.js';
import { catalog } from './test-fixtures.js';

const products = catalog();
const primary = (m: string, expectingCity = false) => analyze(m, products, { expectingCity }).primary;

test('recognises each intent despite accents, case, stretched letters and typos', () => {
  const cases: [string, string][] = [
    ['Holaaa', 'saludo'],
    ['BUENAS TARDES', 'saludo'],
    ['buen día', 'saludo'],
    ['cuanto cuestan las zapatilas', 'precio'],
    ['¿Qué PRECIO tiene la camiseta roja?', 'precio'],
    ['a como las medias', 'precio'],
    ['¿cuántas quedan de medias?', 'stock'],
    ['hay stock de la gorra?', 'stock'],
    ['¿tienen zapatillas runner?', 'producto'],
    ['háblame de las medias', 'producto'],
    ['hacen envíos a Medellín?', 'envio'],
    ['cuanto sale el envio de la camiseta roja', 'envio'],
    ['quiero 2 zapatillas', 'cotizar'],
    ['me lo llevo', 'cotizar'],
    ['agrégame una camiseta roja', 'cotizar'],
    ['quita las medias', 'quitar'],
    ['¿cuánto es todo?', 'ver_cotizacion'],
    ['soy de Cali', 'ciudad'],
    ['vivo en bogota', 'ciudad'],
    ['chao, gracias', 'despedida'],
    ['gracias', 'despedida'],
    ['hasta luego', 'despedida'],
    ['quiero hablar con una persona', 'humano'],
    ['me pasas con un asesor?', 'humano'],
    ['¿qué productos venden?', 'catalogo'],
    ['¿puedo pagar con tarjeta?', 'otro'],
    ['vale', 'otro'],
    ['kiero 2 zapatillas', 'cotizar'],
    ['q presio tienen las medias', 'precio'],
    ['quiero saber el precio de las medias', 'precio'],
    ['dame el precio de la gorra', 'precio'],
    ['quiero las zapatillas', 'cotizar'],
    ['no quiero las zapatillas', 'quitar'],
    ['¿dónde puedo comprar?', 'otro'],
    ['grax', 'despedida'],
  ];
  for (const [m, want] of cases) assert.equal(primary(m), want, m);
});

test('"medios de pago" is a question for the documents, not about the medias', () => {
  const a = analyze('¿Qué medios de pago aceptan?', products);
  assert.equal(a.primary, 'otro');
  assert.equal(a.product, null);
  assert.equal(primary('¿cuánto cuestan las medias?'), 'precio');
});

test('a bare place name is a city only when the agent asked for one', () => {
  assert.equal(primary('Pereira'), 'otro');
  assert.equal(primary('Pereira', true), 'ciudad');
  assert.equal(analyze('Pereira', products, { expectingCity: true }).city, 'Pereira');
  assert.equal(analyze('medellin', products).city, 'Medellín', 'catalog spelling wins');
  assert.equal(analyze('hasta luego', products).city, null);
  assert.equal(analyze('envío a domicilio?', products).city, null);
});

test('reads products and quantities per segment, and tells ambiguous products apart', () => {
  const a = analyze('quiero 2 zapatillas y una camiseta roja', products);
  assert.deepEqual(
    a.items.map((i) => [i.match.products.map((p) => p.id), i.cantidad, i.explicita]),
    [
      [['zap-run'], 2, true],
      [['cam-roja'], 1, true],
    ],
  );
  const ambiguous = analyze('¿cuánto cuesta la camiseta?', products);
  assert.deepEqual(
    ambiguous.product!.products.map((p) => p.id),
    ['cam-roja', 'cam-azul'],
  );
  assert.equal(analyze('media docena de medias', products).items[0].cantidad, 6);
  assert.equal(analyze('2 más', products).primary, 'cotizar');
  assert.equal(analyze('2 más', products).cantidad, 2);
});

test('a product word one typo away from an intent word is not that intent', () => {
  assert.equal(primary('¿cuánto cuesta la gorra?'), 'precio'); // gorra ~ borra (quitar)
});
