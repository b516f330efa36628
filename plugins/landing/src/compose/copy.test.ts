import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DocumentFact } from '../model.js';
import { cleanFact, sectionTitle, sentences } from './copy.js';

const from = (seccion: string | null): DocumentFact => ({
  uso: 'beneficios',
  pregunta: '¿Qué beneficios tiene?',
  texto: 'Texto.',
  fuentes: [{ documento: 'manual.html', pagina: null, seccion }],
});

test('a sentence ends at a full stop before a space, never inside a number', () => {
  assert.deepEqual(sentences('Fija la versión 5.28 de Perl. Cuesta 1.200 pasos menos! ¿Y 3,5 h? Sí.'), [
    'Fija la versión 5.28 de Perl.',
    'Cuesta 1.200 pasos menos!',
    '¿Y 3,5 h?',
    'Sí.',
  ]);
  assert.deepEqual(sentences('Sin punto final'), ['Sin punto final']);
});

test('code blocks are no copy: dropped with the clause that introduces them', () => {
  const answer =
    'Apt gestiona prioridades [1]. Puede fijar una versión con esta entrada:\n```\nPackage: perl\nPin: version 5.28*\n```\n[2] Es seguro [3].';
  assert.equal(cleanFact(answer), 'Apt gestiona prioridades. Es seguro.');
  assert.equal(cleanFact('Instale así.\n```sh\napt install 7zip'), 'Instale así.', 'a block cut off runs to the end');
  assert.equal(cleanFact('Use `apt` para todo.'), 'Use apt para todo.', 'inline code stays as words');
});

test("a heading's numbering is dropped from the title a card takes; a number that is part of the title stays", () => {
  const titles = [
    'Capítulo 6. Mantenimiento › 6.2.5. Gestión de prioridades de los paquetes',
    '6.2 Gestión de paquetes',
    '6. Mantenimiento',
    'Capítulo 6. Mantenimiento',
    'A.1 Apéndice práctico',
    '3 razones para elegirnos',
    'Garantía de 2 años',
    'A Coruña',
  ].map((s) => sectionTitle(from(s)));
  assert.deepEqual(titles, [
    'Gestión de prioridades de los paquetes',
    'Gestión de paquetes',
    'Mantenimiento',
    'Mantenimiento',
    'Apéndice práctico',
    '3 razones para elegirnos',
    'Garantía de 2 años',
    'A Coruña',
  ]);
  assert.equal(sectionTitle(from(null)), null);
});
