// Candidate units of one passage: how a unit's context (its section's headings, the items it announces) shapes what
// is quoted and how it scores.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SearchHit } from '../index/passage-index.js';
import { queryTermGroups } from '../text/analyzer.js';
import { askedType } from './answer-type.js';
import { passageCandidates } from './candidates.js';
import { negatedGroups } from './negation.js';
import { askedValueOf } from './extractive.js';
import { asksTwoThings, questionKind } from './question-kind.js';
import { contentQuestion } from './question-words.js';
import { Relevance } from './relevance.js';

const hit = (text: string, headings: string[], rank = 1): SearchHit => ({
  id: rank,
  documentId: 'd',
  documentName: 'manual.html',
  ord: 0,
  page: null,
  headings,
  text,
  bm25: 1,
  score: 1,
  rank,
});

const relevanceOf = (question: string) => {
  const groups = queryTermGroups(contentQuestion(question));
  return new Relevance(
    groups,
    groups.map(() => 1),
  );
};

test('a list item that announces more is quoted with the items it announces', () => {
  const passage = hit(
    '- Debes redirigir los siguientes puertos:\n- TCP 80 (http)\n- TCP 443 (https)\n- Publica tu nombre de dominio:\n- Escribe el dominio',
    ['Certificados'],
  );
  const candidates = passageCandidates(passage, 1, relevanceOf('¿Qué puertos hay que redirigir?'), 'quantity');
  const best = candidates.sort((a, b) => b.score - a.score)[0]!;
  assert.equal(best.text, 'Debes redirigir los siguientes puertos: TCP 80 (http); TCP 443 (https).');
});

test('a unit counts its section heading as part of what it is about', () => {
  const relevance = relevanceOf('¿Cómo se actualiza la metainformación de los paquetes?');
  const text = 'La metainformación se guarda en la caché local.\n\nEjecute la orden siguiente:\n\n$ apt-get update';
  const underHeading = passageCandidates(hit(text, ['Actualizar los paquetes']), 1, relevance, 'procedure');
  const elsewhere = passageCandidates(hit(text, ['Caché']), 1, relevance, 'procedure');
  const command = (cs: typeof underHeading) => cs.find((c) => c.text.includes('apt-get update'))?.score ?? 0;
  assert.equal(command(elsewhere), 0, 'a command sharing no word with the question nor its heading is no candidate');
  assert.ok(command(underHeading) > 0, 'the heading naming the topic makes the command a candidate');
  const best = underHeading.sort((a, b) => b.score - a.score)[0]!;
  assert.match(best.text, /`\$ apt-get update`/);
});

test('a long unit is held back, a long sentence (an unsplit run of text) more than a long list item', () => {
  const relevance = relevanceOf('¿Qué puertos usa el proxy?');
  const long = `El proxy usa los puertos 4444 y 4445 ${'para el tráfico web de los navegadores configurados '.repeat(8)}.`;
  const short = 'El proxy usa los puertos 4444 y 4445.';
  const score = (text: string) =>
    passageCandidates(hit(text, ['Proxy']), 1, relevance, 'quantity').find((c) => c.text.includes('4444'))!.score;
  const sentence = score(long);
  const item = score(`- ${long}`);
  assert.ok(long.length > 400);
  assert.ok(sentence < item && item < score(short), `${sentence} < ${item} < ${score(short)}`);
});

test('a word naming the asked value counts only in a unit that holds that value', () => {
  const question = '¿A qué hora empieza la guardia?';
  const relevance = relevanceOf(question);
  const typed = askedType(question, questionKind(question));
  const value = askedValueOf(question, typed, relevance);
  const text =
    'La guardia es semanal, de lunes a las 10:00 al lunes siguiente a las 10:00. Por la guardia se pagan 450 pesos por cada hora de incidente.';
  const candidates = passageCandidates(hit(text, ['Guardias']), 1, relevance, 'other', { value });
  const best = candidates.sort((a, b) => b.score - a.score)[0]!;
  assert.match(best.text, /lunes a las 10:00/);
});

test('a question in the document is quoted with what answers it, never alone', () => {
  const text =
    '¿Qué pasa con mis datos si me doy de baja en el servicio? La cuenta pasa a modo solo lectura durante 12 meses. Después se borra.';
  const relevance = relevanceOf('Si me doy de baja, ¿qué pasa con mis datos?');
  const candidates = passageCandidates(hit(text, ['Preguntas frecuentes']), 1, relevance, 'other');
  assert.ok(candidates.length > 0);
  assert.ok(candidates.every((c) => !/\?$/.test(c.text)));
  const best = candidates.sort((a, b) => b.score - a.score)[0]!;
  assert.match(best.text, /^¿Qué pasa con mis datos.*solo lectura durante 12 meses\.$/);
});

test('a sentence announcing what follows, with nothing after it in its passage, is no answer alone', () => {
  const text = 'La empresa da más días de vacaciones que el mínimo legal desde el primer año:';
  const relevance = relevanceOf('¿Cuántos días de vacaciones tengo el primer año?');
  assert.deepEqual(passageCandidates(hit(text, ['Vacaciones']), 1, relevance, 'quantity'), []);
});

test('a unit saying a question word only negated does not cover it, unless the question negates it too', () => {
  const text =
    'Una lámpara no encendida consume 2 vatios en reposo. Cada lámpara encendida consume 9 vatios durante la noche.';
  const question = '¿Cuánto consume una lámpara encendida?';
  const relevance = relevanceOf(question);
  const value = askedValueOf(question, askedType(question, 'quantity'), relevance);
  const best = (negated: ReadonlySet<number> | null) =>
    passageCandidates(hit(text, ['Consumo']), 1, relevance, 'quantity', { value, questionNegated: negated }).sort(
      (a, b) => b.score - a.score,
    )[0]!.text;
  assert.match(best(negatedGroups(question, relevance)), /9 vatios/);
  const negatedQuestion = '¿Cuánto consume una lámpara no encendida?';
  const negatedRelevance = relevanceOf(negatedQuestion);
  assert.deepEqual([...negatedGroups(negatedQuestion, negatedRelevance)], [2]);
  assert.deepEqual([...negatedGroups('La lámpara no encendida y la lámpara encendida.', negatedRelevance)], []);
});

test('a yes/no question: a sentence echoing it is quoted with the next one when only that one states the answer', () => {
  const text =
    'Hace años el fax era el canal habitual para enviar pedidos. Hoy está retirado y ya no se admite. El catálogo se renueva cada temporada.';
  const relevance = relevanceOf('¿Puedo enviar mis pedidos por fax?');
  const candidates = passageCandidates(hit(text, ['Pedidos']), 1, relevance, 'yes-no');
  const best = candidates.sort((a, b) => b.score - a.score)[0]!;
  assert.equal(
    best.text,
    'Hace años el fax era el canal habitual para enviar pedidos. Hoy está retirado y ya no se admite.',
  );
});

test('a question asking two things: a sentence is quoted with the next one when that one speaks to the second', () => {
  const text =
    'El servicio `vigia` recoge las alertas de cada sensor del almacén. Su archivo de configuración es /etc/vigia.conf. Se instala con el sistema.';
  const question = '¿Qué servicio recoge las alertas y cuál es su archivo de configuración?';
  const relevance = relevanceOf(question);
  const best = (twoParts: boolean) =>
    passageCandidates(hit(text, ['Alertas']), 1, relevance, 'other', { twoParts }).sort((a, b) => b.score - a.score)[0]!
      .text;
  assert.equal(asksTwoThings(question), true);
  assert.equal(
    best(true),
    'El servicio `vigia` recoge las alertas de cada sensor del almacén. Su archivo de configuración es /etc/vigia.conf.',
  );
  assert.doesNotMatch(best(false), /vigia\.conf.*vigia|almacén\. Su archivo/);
  assert.equal(asksTwoThings('¿Qué servicio recoge las alertas que envían los sensores?'), false);
});
