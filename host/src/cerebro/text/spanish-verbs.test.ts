import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentQuestion, isQuestionFormWord } from '../answer/question-words.js';
import { queryWords } from './analyzer.js';
import { verbForms } from './spanish-verbs.js';

/** The words a question is searched and judged by (question-form words and stopwords left out). */
const content = (q: string) => queryWords(contentQuestion(q)).join(' ');

test('a regular verb is conjugated in every person people ask in, folded', () => {
  const forms = new Set(verbForms({ infinitive: 'necesitar' }));
  for (const f of [
    'necesito',
    'necesitas',
    'necesita',
    'necesitamos',
    'necesitais',
    'necesitan',
    'necesite',
    'necesiteis',
    'necesitaria',
    'necesitarian',
    'necesitara',
  ]) {
    assert.ok(forms.has(f), f);
  }
  const abrir = new Set(verbForms({ infinitive: 'abrir' }));
  for (const f of ['abro', 'abris', 'abren', 'abrimos', 'abra', 'abrais', 'abririan', 'abriera'])
    assert.ok(abrir.has(f), f);
});

test('irregular stems replace the regular ones only where Spanish changes them', () => {
  const poder = new Set(verbForms({ infinitive: 'poder', strong: 'pued', future: 'podr', preterite: 'pud' }));
  for (const f of ['puedo', 'puedes', 'puede', 'podemos', 'podeis', 'pueden', 'pueda', 'podria', 'podriais', 'pudiera'])
    assert.ok(poder.has(f), f);
  assert.ok(!poder.has('puedemos') && !poder.has('podo'), 'the stressed stem is not used where the stress moves');
  const tener = new Set(
    verbForms({ infinitive: 'tener', strong: 'tien', yo: 'tengo', future: 'tendr', preterite: 'tuv' }),
  );
  for (const f of ['tengo', 'tienes', 'teneis', 'tienen', 'tenga', 'tengais', 'tendriamos', 'tuvierais'])
    assert.ok(tener.has(f), f);
  assert.throws(() => verbForms({ infinitive: 'casa' }), /infinitive/);
});

test('questions in usted, ustedes and vosotros lose their light verbs and pronouns as questions in tú do', () => {
  assert.equal(content('¿Me podéis mandar muestras de la tela?'), 'mandar muestras tela');
  assert.equal(content('¿Me puede mandar muestras de la tela?'), 'mandar muestras tela');
  assert.equal(content('¿Tenéis algún descuento?'), 'descuento');
  assert.equal(content('¿Qué artículos de seguridad tienen?'), 'artículos seguridad');
  assert.equal(content('¿Cuál es vuestro horario?'), 'horario');
  assert.equal(content('¿Me podría decir el horario de ustedes?'), 'horario');
  assert.equal(content('¿Me vais a cobrar el montaje?'), 'cobrar montaje');
  // The verb that names the topic stays.
  assert.ok(!isQuestionFormWord('cobráis') && !isQuestionFormWord('devolvéis'));
});

test('what one is entitled to and places pointed at are no topic ("¿cuántos días me tocan?", "desde allá")', () => {
  assert.equal(content('¿Cuántos días me tocan de vacaciones?'), 'días vacaciones');
  assert.equal(content('Voy a ser papá, ¿cuántos días me corresponden?'), 'papá días');
  assert.equal(content('¿Puedo trabajar desde allá?'), 'trabajar');
});
