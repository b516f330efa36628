import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queryTermGroups } from '../text/analyzer.js';
import { contentQuestion } from './question-words.js';
import { glossesIn, withGlosses } from './glosses.js';
import { Relevance } from './relevance.js';

test('a word glossed in parentheses and an acronym with its expansion are read as pairs', () => {
  assert.deepEqual(glossesIn('tienen un rol de guardia (on-call) semanal'), [
    { term: ['guardia'], gloss: ['on-call'] },
  ]);
  assert.deepEqual(glossesIn('con su CFDI (factura electrónica)'), [
    { term: ['CFDI'], gloss: ['factura', 'electrónica'] },
  ]);
  assert.deepEqual(glossesIn('el Domain Name System (DNS) traduce nombres'), [
    { term: ['DNS'], gloss: ['Domain', 'Name', 'System'] },
  ]);
  assert.deepEqual(glossesIn('el Servicio de Nombres de Dominio (SND)'), [
    { term: ['SND'], gloss: ['Servicio', 'Nombres', 'Dominio'] },
  ]);
});

test('remarks in parentheses are no glosses', () => {
  for (const text of [
    'Tu cumpleaños (si cae en fin de semana, lo tomas el día hábil más cercano).',
    '12 semanas (pagadas por el IMSS)',
    'a las 9:30 (o en videollamada si eres remoto)',
    'la devolución (ver apartado 5)',
    'un Sistema Operativo (DNS)',
  ])
    assert.deepEqual(glossesIn(text), [], text);
});

test("a question's word counts where a passage says what another passage glosses it as", () => {
  const question = '¿Cuánto pagan por cubrir una semana de on-call?';
  const groups = queryTermGroups(contentQuestion(question));
  const glossed = withGlosses(groups, ['Los equipos tienen un rol de guardia (on-call) semanal.']);
  const weights = glossed.map(() => 1);
  const passage = Relevance.termsOf('Compensación: $3,500 MXN por semana de guardia.');
  assert.equal(new Relevance(groups, weights).groupsIn(passage).size, 1);
  assert.equal(new Relevance(glossed, weights).groupsIn(passage).size, 2);
  // Nothing glossed, nothing added.
  assert.deepEqual(withGlosses(groups, ['La guardia es semanal.']), groups);
});

test('an acronym counts where its expansion is said, and each word of the expansion where the acronym is', () => {
  const text = ['El Domain Name System (DNS) traduce nombres.'];
  const [dns] = withGlosses(queryTermGroups('DNS'), text);
  assert.equal(
    ['domain', 'name', 'system'].every((w) => dns!.some((t) => t.startsWith(w.slice(0, 4)))),
    true,
  );
  const expanded = withGlosses(queryTermGroups('domain name system'), text);
  assert.equal(
    expanded.every((g) => g.includes('dns')),
    true,
  );
});
