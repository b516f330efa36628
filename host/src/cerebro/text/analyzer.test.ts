import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  detectLanguage,
  foldAccents,
  indexTerms,
  otherNumber,
  passageLanguage,
  queryTermGroups,
  searchableTerms,
  termOf,
  unstressedStem,
  words,
} from './analyzer.js';

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
  assert.deepEqual(
    queryTermGroups('¿Cómo se configura el proxy?').map((g) => g[0]),
    ['configur', 'proxy'],
  );
});

test('a question word yields its Spanish and English terms as alternatives, once per word', () => {
  const groups = queryTermGroups('paquetes paquetes packages');
  assert.equal(groups.length, 2);
  assert.ok(groups[0]!.includes('paquet'));
  assert.ok(groups[1]!.includes('packag'));
});

test('language detection tells Spanish from English', () => {
  assert.equal(
    detectLanguage('El sistema de paquetes de Debian es la base de la distribución y de sus herramientas.'),
    'es',
  );
  assert.equal(detectLanguage('The package system of Debian is the basis of the distribution and of its tools.'), 'en');
});

test('words typed without accents meet their accented forms (-ción, -sión)', () => {
  assert.deepEqual(
    indexTerms('configuracion instalacion version', 'es'),
    indexTerms('configuración instalación versión', 'es'),
  );
});

test('a Spanish text full of English command names is Spanish', () => {
  const text =
    'Para actualizar ejecute sudo apt-get update && sudo apt-get upgrade. Si el proxy falla, edite /etc/apt/apt.conf ' +
    'y compruebe con apt-cache policy. The output of git log --oneline --graph muestra la historia; use grep -r "import" src/.';
  assert.equal(detectLanguage(text), 'es');
  assert.equal(passageLanguage(text, 'es'), 'es');
});

test('a passage keeps its document language unless it clearly says otherwise', () => {
  const english =
    'This page describes the process of installing FreedomBox on a Debian system. It also means that any machine ' +
    'running Debian can be turned into a FreedomBox, and all the work on it is available in Debian as packages.';
  assert.equal(passageLanguage(english, 'es'), 'en');
  assert.equal(
    passageLanguage('Ejecute apt-get install freedombox.', 'en'),
    'en',
    'too few words to overrule the document',
  );
  assert.equal(passageLanguage('systemctl restart minetest-server.service', 'es'), 'es');
});

test('questions are analysed only in the languages asked for', () => {
  const both = queryTermGroups('¿Cómo se reinician los servicios?');
  const spanish = queryTermGroups('¿Cómo se reinician los servicios?', ['es']);
  assert.ok(
    both.some((g) => g.length === 2),
    'Spanish and English stems differ for some word',
  );
  assert.ok(spanish.every((g) => g.length === 1));
  assert.deepEqual(
    spanish.map((g) => g[0]),
    both.map((g) => g[0]),
  );
});

test('"volver a <verbo>" searches the verb with the prefix re-, as documentation says it', () => {
  assert.deepEqual(queryTermGroups('vuelvo a configurar un paquete', ['es']), [['reconfigur'], ['paquet']]);
  assert.deepEqual(queryTermGroups('volver a instalar grub', ['es']), [['reinstal'], ['grub', 'grubs']]);
  // Without a verb after it, "vuelve" is an ordinary word (with its unstressed stem, as any Spanish verb).
  assert.deepEqual(queryTermGroups('vuelve a casa', ['es']), [['vuelv', 'volv'], ['cas']]);
});

test('a stressed diphthong stem also searches the unstressed one, as Spanish verbs alternate them', () => {
  assert.equal(unstressedStem('devuelven'), 'devolven');
  assert.equal(unstressedStem('cierran'), 'cerran');
  assert.equal(unstressedStem('empieza'), 'empeza');
  assert.equal(unstressedStem('sigue'), null, 'gue/que spell a consonant, not a diphthong');
  assert.equal(unstressedStem('envío'), null);
  const [group] = queryTermGroups('devuelven', ['es']);
  assert.ok(group!.includes(termOf('devolver', 'es')), 'the question meets "devolver" in the text');
  assert.ok(group!.includes(termOf('devuelven', 'es')));
  assert.deepEqual(queryTermGroups('devuelven', ['en']), [[termOf('devuelven', 'en')]], 'only Spanish alternates so');
});

test('a loanword plural with a bare -s meets its singular: the question searches both numbers', () => {
  assert.equal(otherNumber('laptop'), 'laptops');
  assert.equal(otherNumber('Tickets'), 'ticket');
  // Words the Spanish stemmer knows keep its handling, and a vowel-final word has no such plural.
  assert.equal(otherNumber('cambian'), null);
  assert.equal(otherNumber('mesa'), null);
  // An acronym typed in capitals ends in its own letter: HTTPS is another protocol than HTTP, not its plural; an
  // acronym's plural is written with a small s.
  assert.equal(otherNumber('HTTPS', true), null);
  assert.deepEqual(queryTermGroups('¿Cómo habilito HTTPS en Apache?', ['es'])[1], ['https']);
  assert.deepEqual(queryTermGroups('Relación de RFCs comunes', ['es'])[1], ['rfcs', 'rfc']);
  assert.deepEqual(queryTermGroups('¿Qué es una URL?', ['es'])[0], ['url', 'urls']);
  const [laptop] = queryTermGroups('¿Cada cuánto cambian la laptop?', ['es']).filter((g) => g.includes('laptop'));
  assert.ok(laptop?.includes(indexTerms('laptops', 'es')[0]!));
});

test("words splits on apostrophes only where there is one; searchable terms are every language's and the folded word", () => {
  assert.deepEqual(words("L'ordinateur d’Anne y la configuración"), [
    'l',
    'ordinateur',
    'd',
    'anne',
    'y',
    'la',
    'configuración',
  ]);
  assert.deepEqual([...searchableTerms('configuración')].sort(), ['configuracion', 'configur'].sort());
  assert.deepEqual([...searchableTerms('packages')].sort(), ['packag', 'packages']);
});
