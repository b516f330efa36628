// Whether a turn leans on the one before it: what a conversation searches for.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  announcesNewSubject,
  antecedents,
  dependsOnPrevious,
  isEllipsis,
  retrievalQuery,
  withoutOpening,
} from './follow-up.js';

test('a turn that continues, points back or names nothing depends on the previous one', () => {
  for (const q of [
    '¿y en Valencia?',
    '¿Y para empresas?',
    'Pero ¿y los domingos?',
    '¿en Sevilla?',
    '¿para autónomos?',
    '¿Cuánto tarda eso?',
    '¿Dónde está ese archivo?',
    '¿Qué pasa allí?',
    '¿Lo puedo cambiar después?',
    '¿Cada cuánto los cambian?',
    '¿Me la puedo llevar?',
    '¿Cuánto cuesta?',
    'Vale, ¿y el martes?',
  ])
    assert.equal(dependsOnPrevious(q), true, q);
});

test('a turn with a topic of its own, or announcing a new subject, stands alone', () => {
  for (const q of [
    '¿Cuál es el horario?',
    '¿Cuál es vuestro horario de atención?',
    'Otra cosa: ¿cuál es vuestro teléfono?',
    'Cambiando de tema, ¿y el precio del plan básico?',
    '¿A qué hora abrís los sábados?',
    '¿Cómo instalo un paquete .deb?',
    'Perfecto. ¿Aceptáis transferencias bancarias?',
    '¿Cuál es la dirección de la oficina?',
    '¿Por cierto, hacéis envíos a Portugal?',
  ])
    assert.equal(dependsOnPrevious(q), false, q);
});

test('retrieval reads a follow-up with the previous question, and a new question alone', () => {
  const history = [
    { role: 'user' as const, content: '¿Cuántos días de vacaciones tengo?' },
    { role: 'assistant' as const, content: 'Quince días.' },
  ];
  assert.equal(retrievalQuery({ space: 's', question: '¿Cuál es el horario?', history }), '¿Cuál es el horario?');
  assert.equal(
    retrievalQuery({ space: 's', question: '¿y el segundo año?', history }),
    '¿y el segundo año?\n¿Cuántos días de vacaciones tengo?',
  );
  assert.equal(retrievalQuery({ space: 's', question: '¿y el segundo año?' }), '¿y el segundo año?');
});

test('emoji, symbols or punctuation alone never lean on the previous turn', () => {
  for (const q of ['🙂🙂', '???', '👍', '¿?']) assert.equal(dependsOnPrevious(q), false, q);
});

test('"las"/"los" before a verb form, not a plural noun, point back', () => {
  for (const q of ['¿Con cuánta anticipación las pido?', '¿Los puedo devolver?', '¿Cuándo la quito?'])
    assert.equal(dependsOnPrevious(q), true, q);
  for (const q of [
    '¿Cuánto cuestan las sillas plegables?',
    '¿Dónde están los manuales de usuario?',
    '¿Abre la tienda en agosto?',
  ])
    assert.equal(dependsOnPrevious(q), false, q);
});

test('a follow-up of a follow-up is searched with the chain of questions back to the one with a topic', () => {
  const history = [
    { role: 'user' as const, content: '¿Cuánto vale el taladro percutor?' },
    { role: 'assistant' as const, content: '49 990 pesos.' },
    { role: 'user' as const, content: '¿y el inalámbrico?' },
    { role: 'assistant' as const, content: '69 990 pesos.' },
  ];
  assert.deepEqual(antecedents({ space: 's', question: '¿cuántas baterías trae ese?', history }), [
    '¿y el inalámbrico?',
    '¿Cuánto vale el taladro percutor?',
  ]);
  assert.equal(
    retrievalQuery({ space: 's', question: '¿cuántas baterías trae ese?', history }),
    '¿cuántas baterías trae ese?\n¿y el inalámbrico?\n¿Cuánto vale el taladro percutor?',
  );
  // The chain stops at the question that stood on its own.
  assert.deepEqual(antecedents({ space: 's', question: '¿y en rojo?', history: history.slice(0, 2) }), [
    '¿Cuánto vale el taladro percutor?',
  ]);
});

test('the words that open a turn but ask nothing are left out of it, accents and all', () => {
  assert.equal(withoutOpening('Otra cosa: ¿cuál es vuestro teléfono?'), '¿cuál es vuestro teléfono?');
  assert.equal(withoutOpening('Cambiando de tema, ¿cuánto es el presupuesto?'), '¿cuánto es el presupuesto?');
  assert.equal(withoutOpening('Vale. ¿Vendéis tarjetas regalo?'), '¿Vendéis tarjetas regalo?');
  assert.equal(withoutOpening('Perfecto, gracias. Otra duda: ¿abrís en agosto?'), '¿abrís en agosto?');
  // Nothing else left: the turn as it was; no opening: untouched.
  assert.equal(withoutOpening('Vale, gracias.'), 'Vale, gracias.');
  assert.equal(withoutOpening('¿Cuál es el horario?'), '¿Cuál es el horario?');
  // Inside the question they ask.
  assert.equal(withoutOpening('¿Otra cosa que vendáis?'), '¿Otra cosa que vendáis?');
  assert.equal(withoutOpening('¿Vale la pena el plan Pro?'), '¿Vale la pena el plan Pro?');
});

test('a turn announcing a new subject says so, after an acknowledgement too', () => {
  assert.equal(announcesNewSubject('Otra cosa: ¿cuál es vuestro teléfono?'), true);
  assert.equal(announcesNewSubject('Vale. Cambiando de tema, ¿cuánto cuesta?'), true);
  assert.equal(announcesNewSubject('¿y los sábados?'), false);
  assert.equal(announcesNewSubject('¿Cuál es el horario?'), false);
});

test('a short fragment that continues the previous question only swaps its topic', () => {
  for (const q of [
    '¿y los sábados?',
    '¿Y los servidores DNS?',
    '¿y a Canarias?',
    '¿para empresas?',
    'Vale, ¿y el martes?',
  ])
    assert.equal(isEllipsis(q), true, q);
  // A verb of its own, a question word, or no continuation: it asks something of its own.
  for (const q of [
    '¿y la vieja me la puedo quedar?',
    '¿y cuánto tarda?',
    '¿y hay parking?',
    '¿Cuál es el horario?',
    'Los sábados',
    '¿y si después devuelvo el sofá, tengo que pagar intereses?',
  ])
    assert.equal(isEllipsis(q), false, q);
});
