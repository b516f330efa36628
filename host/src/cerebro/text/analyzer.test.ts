import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectLanguage, foldAccents, indexTerms, queryTermGroups } from './analyzer.js';

test('Spanish stemming runs before accent folding, so inflections meet on one term', () => {
  const [a] = indexTerms('configuración', 'es');
  const [b] = indexTerms('configurar', 'es');
  const [c] = indexTerms('CONFIGURACIONES', 'es');
  assert.equal(a, b);
  assert.equal(a, c);
  assert.equal(a, 'configur');
  assert.deepEqual(indexTerms('instalación instalar instalado', 'es'), ['instal', 'instal', 'instal']);
});

test('accents and ñ are folded so unaccented queries match accented text', () => {
  assert.equal(foldAccents('canción'), 'cancion');
  assert.equal(foldAccents('año'), 'ano');
  assert.deepEqual(indexTerms('canción', 'es'), indexTerms('cancion', 'es'));
  assert.deepEqual(indexTerms('pingüino', 'es'), indexTerms('pinguino', 'es'));
});

test('English documents are stemmed with the English stemmer', () => {
  assert.deepEqual(indexTerms('installing installed installs', 'en'), ['instal', 'instal', 'instal']);
});

test('function words are dropped from text and questions', () => {
  assert.deepEqual(indexTerms('el de la y los', 'es'), []);
  assert.deepEqual(queryTermGroups('¿Cómo se configura el proxy?').map((g) => g[0]), ['configur', 'proxy']);
});

test('a question word yields its Spanish and English terms as alternatives, once per word', () => {
  const groups = queryTermGroups('paquetes paquetes packages');
  assert.equal(groups.length, 2);
  assert.ok(groups[0]!.includes('paquet'));
  assert.ok(groups[1]!.includes('packag'));
});

test('language detection tells Spanish from English', () => {
  assert.equal(detectLanguage('El sistema de paquetes de Debian es la base de la distribución y de sus herramientas.'), 'es');
  assert.equal(detectLanguage('The package system of Debian is the basis of the distribution and of its tools.'), 'en');
});

test('words typed without accents meet their accented forms (-ción, -sión)', () => {
  assert.deepEqual(indexTerms('configuracion instalacion version', 'es'), indexTerms('configuración instalación versión', 'es'));
});
