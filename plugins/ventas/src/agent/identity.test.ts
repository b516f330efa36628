// One shop name when the agent introduces itself (issue #26 item 5): the brand's, the sales settings' when the brand
// was never named, none rather than the space id; a role that names the shop is not followed by it again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPluralName, ofProduct, productSubject, withArticle } from './article.js';
import { brandDescription, presentation, shopName } from './identity.js';
import { brand } from './test-fixtures.js';

test("the shop is the brand's name, else nombre_tienda (also when the brand carries the space id), else none", () => {
  const named = brand();
  assert.equal(shopName('ferreteria', 'Otra Tienda', named), 'Deportes Ruiz');
  assert.equal(
    shopName('ferreteria', 'Ferretería El Martillo', { ...named, name: 'ferreteria' }),
    'Ferretería El Martillo',
  );
  assert.equal(shopName('ferreteria', 'Ferretería El Martillo', null), 'Ferretería El Martillo');
  assert.equal(shopName('ferreteria', '  ', { ...named, name: 'ferreteria' }), null);
  assert.equal(shopName('ferreteria', '', null), null);
});

test('the agent introduces itself naturally and names the shop once', () => {
  const b = brand();
  assert.equal(presentation(b, 'Deportes Ruiz'), 'Soy Sofía, asesora de ventas en Deportes Ruiz.');
  const owning = { ...b, identidad: { ...b.identidad, rol: 'asesora de ventas de Ferretería El Martillo' } };
  assert.equal(
    presentation(owning, 'Ferretería El Martillo'),
    'Soy Sofía, asesora de ventas de Ferretería El Martillo.',
  );
  assert.equal(
    presentation(owning, 'ferreteria el martillo'),
    'Soy Sofía, asesora de ventas de Ferretería El Martillo.',
  );
  assert.equal(presentation(b, null), 'Soy Sofía, asesora de ventas.');
  assert.equal(presentation(null, 'Ferretería El Martillo'), 'Soy el asistente de ventas de Ferretería El Martillo.');
  assert.equal(presentation(null, null), 'Soy el asistente de ventas de la tienda.');
});

test("the persona's first sentence names the sales settings' shop when the brand was never named", () => {
  const b = {
    ...brand(),
    name: 'ferreteria',
    persona: 'Eres Sofía, asesora de ventas de ferreteria.\nNo uses emojis.',
  };
  assert.equal(
    brandDescription(b, 'Ferretería El Martillo'),
    'Eres Sofía, asesora de ventas de Ferretería El Martillo.\nNo uses emojis.',
  );
  assert.equal(brandDescription(brand(), 'Deportes Ruiz'), brand().persona);
});

test('a product inside a sentence takes its article when its first word tells the gender', () => {
  assert.equal(withArticle('Juego de brocas'), 'el juego de brocas');
  assert.equal(withArticle('Zapatillas Runner'), 'las zapatillas Runner');
  assert.equal(withArticle('Camiseta roja'), 'la camiseta roja');
  assert.equal(withArticle('Medias deportivas'), 'las medias deportivas');
  assert.equal(withArticle('Taladro percutor'), 'el taladro percutor');
  assert.equal(withArticle('Guantes de trabajo'), 'los guantes de trabajo');
  assert.equal(withArticle('Llave inglesa'), 'la llave inglesa');
  assert.equal(withArticle('Pantalones cortos'), 'los pantalones cortos');
  assert.equal(withArticle('Canción'), 'la canción');
  assert.equal(withArticle('ACME Pro'), 'ACME Pro', 'a brand or acronym keeps its spelling and gets no guess');
  assert.equal(withArticle('Xbox'), 'Xbox', 'an ending that tells nothing: as written');
});

test('a product after "de" contracts with "el", and a plural name takes a plural verb', () => {
  assert.equal(ofProduct('Juego de brocas'), 'del juego de brocas');
  assert.equal(ofProduct('Zapatillas Runner'), 'de las zapatillas Runner');
  assert.equal(ofProduct('Xbox'), 'de Xbox');
  assert.equal(productSubject('Medias deportivas'), 'Las medias deportivas');
  assert.equal(isPluralName('Medias deportivas'), true);
  assert.equal(isPluralName('Camiseta roja'), false);
});
