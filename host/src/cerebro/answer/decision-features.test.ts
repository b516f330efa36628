// The decision model's features and the model over them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SearchHit } from '../index/passage-index.js';
import { queryTermGroups } from '../text/analyzer.js';
import { askedType, holdsType } from './answer-type.js';
import {
  absentRarity,
  coverageLeads,
  decisionFeatures,
  FEATURE_NAMES,
  LEAD_DEPTH,
  nameHeld,
  namesIn,
  proximity,
} from './decision-features.js';
import { answerProbability, checkedModel, DECISION_MODEL } from './decision-model.js';
import { contentQuestion } from './question-words.js';
import { questionKind } from './question-kind.js';
import { Relevance } from './relevance.js';

const relevanceOf = (question: string, weights?: number[]) => {
  const groups = queryTermGroups(contentQuestion(question));
  return new Relevance(groups, weights ?? groups.map(() => 1));
};
const hit = (text: string, bm25: number, rank: number, headings: string[] = []): SearchHit => ({
  id: rank,
  documentId: 'd',
  documentName: 'd.md',
  ord: rank,
  page: null,
  headings,
  text,
  bm25,
  score: bm25,
  rank,
});

test('proximity: the question words said together score higher than the same words far apart', async () => {
  const r = relevanceOf('¿Cuánto cuesta el envío a Canarias?');
  const near = proximity(r, 'El envío a Canarias cuesta 149 euros por pedido.');
  const far = proximity(
    r,
    `El envío se prepara en dos días. ${'Texto de relleno sin nada que ver. '.repeat(6)}Canarias tiene otra tarifa que cuesta más.`,
  );
  assert.ok(near > far, `${near} > ${far}`);
  assert.equal(proximity(r, 'Nada que ver.'), 1);
});

test('names: capitalised words past the first and words mixing letters with digits or dots', async () => {
  assert.deepEqual(namesIn('¿Cómo configuro una VPN con WireGuard?'), ['VPN', 'WireGuard']);
  assert.deepEqual(namesIn('¿Cómo instalo node.js y systemd-boot?'), ['node.js', 'systemd-boot']);
  assert.deepEqual(namesIn('¿Cuál es vuestro horario?'), []);
  // Each sentence's first word is capitalised as such, not as a name.
  assert.deepEqual(namesIn('¿Dónde guardáis los datos? ¿Están en Irlanda?'), ['Irlanda']);
  assert.deepEqual(namesIn('Vivo en Lugo. Tengo un pedido con Mensajería Rápida.'), ['Lugo', 'Mensajería', 'Rápida']);
  // Punctuation is taken off around a name, never inside it.
  assert.deepEqual(namesIn('¿Dónde pongo APT::Default-Release?'), ['APT::Default-Release']);
  assert.deepEqual(namesIn('(Nextcloud) «Zoom»'), ['Zoom']);
});

test('a name joining words with dots or hyphens is held only where its words are said together', async () => {
  const question = '¿Cómo paso de GRUB a systemd-boot?';
  const relevance = relevanceOf(question);
  const apart = ['GRUB arranca el sistema con systemd.', 'El sector de boot del disco.'];
  const union = relevance.termsOf(apart.join(' '));
  assert.equal(nameHeld('systemd-boot', relevance, union, apart), false, 'its parts in other places');
  assert.equal(nameHeld('systemd-boot', relevance, union, ['Con systemd boot no hace falta GRUB.']), true);
  assert.equal(nameHeld('APT::Default-Release', relevance, union, ['Defina APT::Default-Release en apt.conf.']), true);
  assert.equal(nameHeld('GRUB', relevance, union, apart), true, 'a one-word name by its terms');
  const features = decisionFeatures({
    question,
    relevance,
    asked: 'command',
    hits: apart.map((text, i) => hit(text, 5 - i, i + 1)),
    coverage: [0.5, 0.5],
  });
  assert.equal(features[0]![FEATURE_NAMES.indexOf('nameMissing')], 1, 'no passage names systemd-boot');
});

test('the asked value: a number for how much, a time for when, a place for where, a command for how', async () => {
  const typed = (q: string) => askedType(q, questionKind(q));
  assert.equal(typed('¿Cuánto cuesta el plan Pro?'), 'number');
  assert.equal(typed('¿Cuándo abrís?'), 'time');
  assert.equal(typed('¿A qué hora cierra la tienda?'), 'time');
  assert.equal(typed('¿Dónde se guarda la configuración?'), 'place');
  assert.equal(typed('¿Cómo reinicio el servicio?'), 'command');
  assert.equal(typed('¿Por qué falla la instalación?'), 'reason');
  assert.equal(typed('¿Qué es un paquete virtual?'), null);
  // "¿Cuánto tarda / dura…?" asks for a span of time, not any number.
  assert.equal(typed('¿Cuánto tarda en llegar un pedido a Lugo?'), 'time');
  assert.equal(typed('cuanto dura la garantia'), 'time');
  // "cuando" unaccented inside a question is the conjunction; opening a question or accented, it asks when.
  assert.equal(typed('¿Cómo borro un paquete cuando ya no hace falta?'), 'command');
  assert.equal(typed('cuando abren los sabados'), 'time');
  assert.equal(typed('Tengo una duda: ¿hasta cuando puedo devolverlo?'), 'time');
  assert.equal(holdsType('El envío cuesta 29 €.', 'number'), true);
  assert.equal(holdsType('Abrimos de lunes a viernes de 10:00 a 14:00.', 'time'), true);
  assert.equal(holdsType('Se guarda en /etc/hostname.', 'place'), true);
  assert.equal(holdsType('Ejecute `systemctl restart apache2`.', 'command'), true);
  assert.equal(holdsType('Los envíos son rápidos.', 'number'), false);
});

test('features: one vector per hit in the stored order; a missing name and an absent value are seen', async () => {
  const question = '¿Cuánto cuesta el envío con Seur a Canarias?';
  const relevance = relevanceOf(question);
  const hits = [
    hit('El envío a Canarias cuesta 149 €.', 8, 1, ['Envíos']),
    hit('Los envíos a Canarias se preparan con cuidado.', 4, 2),
  ];
  const features = decisionFeatures({ question, relevance, asked: 'number', hits, coverage: [0.8, 0.6] });
  assert.equal(features.length, 2);
  assert.equal(features[0]!.length, FEATURE_NAMES.length);
  const f = (i: number, name: (typeof FEATURE_NAMES)[number]) => features[i]![FEATURE_NAMES.indexOf(name)];
  assert.equal(f(0, 'nameMissing'), 1, 'no passage names Seur');
  assert.equal(f(0, 'typeHeld'), 1);
  assert.equal(f(1, 'typeHeld'), 0);
  assert.equal(f(0, 'unitTypeHeld'), 1, 'the sentence naming envío and Canarias holds the price');
  assert.ok(f(0, 'unitCoverage')! > f(1, 'unitCoverage')!);
  assert.ok(f(0, 'headingCoverage')! > 0);
});

test('the shipped model fits the features, and more evidence means a higher probability', async () => {
  assert.equal(checkedModel(DECISION_MODEL), DECISION_MODEL);
  const question = '¿Cuánto cuesta el envío a Canarias?';
  const relevance = relevanceOf(question);
  const strong = decisionFeatures({
    question,
    relevance,
    asked: 'number',
    hits: [hit('El envío a Canarias cuesta 149 €.', 9, 1, ['Envíos a Canarias'])],
    coverage: [1],
  })[0]!;
  const weak = decisionFeatures({
    question,
    relevance,
    asked: 'number',
    hits: [hit('Hablamos de muebles de salón.', 1, 1)],
    coverage: [0],
  })[0]!;
  assert.ok(answerProbability(DECISION_MODEL, strong) > DECISION_MODEL.threshold);
  assert.ok(answerProbability(DECISION_MODEL, weak) < DECISION_MODEL.threshold);
  assert.throws(() => checkedModel({ ...DECISION_MODEL, features: ['coverage'] }), /npm run calibrate/);
});

/** An extractive answerer over documents seeded into space "s": name → passages. */
async function answererOver(documents: Record<string, string[]>) {
  const { migratedDb } = await import('../testing/fixtures.js');
  const { seedDocument, sqlitePassageIndex } = await import('../testing/seed.js');
  const { Retriever } = await import('../index/retriever.js');
  const { ExtractiveAnswerer } = await import('./extractive.js');
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  for (const [name, texts] of Object.entries(documents))
    await seedDocument(
      db,
      index,
      's',
      name,
      texts.map((text) => ({ text })),
    );
  return new ExtractiveAnswerer(index, new Retriever(index));
}

test('a word naming the kind of value asked ("¿Qué días…?") counts as found in a passage holding such a value', async () => {
  const answerer = await answererOver({
    'horario.txt': ['Horario de la biblioteca\n\nLa biblioteca abre de lunes a viernes de nueve a dos.'],
    'normas.txt': ['Normas\n\nEn la biblioteca se habla en voz baja.'],
  });
  const [opening, rules] = (await answerer.judge({ space: 's', question: '¿Qué días abre la biblioteca?' })).pool;
  assert.match(opening!.hit.text, /lunes a viernes/);
  assert.equal(opening!.coverage, 1, '"días" is answered by the days the passage names');
  assert.ok(rules!.coverage < 1, 'a passage naming no day does not cover it');
  assert.equal((await answerer.answer({ space: 's', question: '¿Qué días abre la biblioteca?' })).found, true);
});

test('a verb asking for a price or a span ("¿Cuánto valen…?", "¿Cuánto tarda…?") is answered by such a value', async () => {
  const answerer = await answererOver({
    'tarifas.txt': [
      'Tarifas del taller\n\nLa revisión de la bicicleta de carretera: 35 euros.',
      'Entregas\n\nUna bicicleta encargada llega a la tienda en 10 días hábiles.',
    ],
    'normas.txt': ['Normas\n\nLas bicicletas se guardan en el patio.'],
  });
  for (const [question, value] of [
    ['¿Cuánto vale la revisión de la bicicleta?', /35 euros/],
    ['¿Cuánto tarda una bicicleta encargada?', /10 días/],
  ] as const) {
    const judged = await answerer.judge({ space: 's', question });
    const best = judged.pool[0]!;
    assert.match(best.hit.text, value, question);
    assert.equal(best.coverage, 1, `${question}: the verb is answered by the value the passage holds`);
    const rules = judged.pool.find((p) => p.hit.documentName === 'normas.txt');
    assert.ok(!rules || rules.coverage < 1, `${question}: a passage holding no such value does not cover it`);
  }
});

test('a question word the space never uses, in any form, is seen by the decision (wordAbsent)', async () => {
  const answerer = await answererOver({
    'tarifas.txt': ['Tarifas del taller\n\nLa revisión de la bicicleta de carretera: 35 euros.'],
  });
  const absent = (question: string) =>
    answerer.judge({ space: 's', question }).then((j) => j.pool[0]!.features[FEATURE_NAMES.indexOf('wordAbsent')]);
  assert.equal(await absent('¿Hacéis revisiones de bicicletas de carretera?'), 0, 'every word is there, in some form');
  assert.equal(await absent('¿Hacéis revisiones de patinetes?'), 1, 'no passage says "patinete" in any form');
});

test('the asked value as precisely as asked: a price for "¿cuánto cuesta…?", not any number (unitValueHeld)', async () => {
  const question = '¿Cuánto cuesta el montaje de la cocina?';
  const relevance = relevanceOf(question);
  const hits = [
    hit('El montaje de la cocina cuesta 90 euros.', 8, 1),
    hit('El montaje de la cocina lleva 2 días.', 7, 2),
  ];
  const features = decisionFeatures({ question, relevance, asked: 'number', hits, coverage: [1, 1] });
  const f = (i: number, name: (typeof FEATURE_NAMES)[number]) => features[i]![FEATURE_NAMES.indexOf(name)];
  assert.equal(f(0, 'unitTypeHeld'), 1);
  assert.equal(f(1, 'unitTypeHeld'), 1, '"2 días" is a number');
  assert.equal(f(0, 'unitValueHeld'), 1);
  assert.equal(f(1, 'unitValueHeld'), 0, 'but no price');
});

test('units covering the question equally: the passage holds the value whichever of them comes first', async () => {
  const question = '¿Cuánto pagan por una semana de guardia?';
  const relevance = relevanceOf(question);
  const echo = 'La guardia es semanal y se paga aparte.';
  const priced = 'Se paga la guardia a $3,500 MXN por semana.';
  const unrelated = 'El equipo de Plataforma atiende los incidentes.';
  const hits = [
    hit(`${echo} ${unrelated} ${priced}`, 8, 1),
    hit(`${priced} ${unrelated} ${echo}`, 8, 2),
    hit(`${echo} ${unrelated} Las guardias se pagan cada semana en la nómina.`, 8, 3),
  ];
  const asked = askedType(question, questionKind(question));
  const features = decisionFeatures({ question, relevance, asked, hits, coverage: [1, 1, 1] });
  const f = (i: number, name: (typeof FEATURE_NAMES)[number]) => features[i]![FEATURE_NAMES.indexOf(name)];
  assert.equal(f(0, 'unitValueHeld'), 1, 'the priced unit comes after an equally covering echo');
  assert.equal(f(1, 'unitValueHeld'), 1, 'the priced unit comes first');
  assert.equal(f(0, 'unitCoverage'), f(1, 'unitCoverage'), 'the order changes no feature');
  assert.equal(f(2, 'unitValueHeld'), 0, 'no unit holds a price');
});

test('words no passage of the space holds: their share, the coverage of the rest, and how rare they are', async () => {
  const question = '¿Tenéis descuentos para el cumpleaños de la escuela?';
  const groups = queryTermGroups(contentQuestion(question));
  const relevance = relevanceOf(question);
  const absentAt = groups.findIndex((g) => g.some((t) => t.startsWith('cumplea')));
  assert.ok(absentAt >= 0);
  const absent = groups.map((_, i) => i === absentAt);
  const features = decisionFeatures({
    question,
    relevance,
    asked: null,
    hits: [hit('Descuentos para la escuela: un 10 % en cada pedido.', 5, 1, ['Escuela'])],
    coverage: [(groups.length - 1) / groups.length],
    absent,
    groups,
  })[0]!;
  const f = (name: (typeof FEATURE_NAMES)[number]) => features[FEATURE_NAMES.indexOf(name)]!;
  assert.equal(f('wordAbsent'), 1);
  assert.ok(Math.abs(f('absentShare') - 1 / groups.length) < 1e-9);
  assert.ok(Math.abs(f('presentCoverage') - 1) < 1e-9, 'the passage holds every word the space holds');
  assert.ok(f('absentRarity') > 0 && f('absentRarity') <= 1);
});

test('absentRarity: a missing common word weighs less than a missing word general Spanish hardly uses', async () => {
  const common = queryTermGroups('tiempo');
  const rare = queryTermGroups('wireguard');
  assert.equal(absentRarity(common, new Set()), 0, 'nothing absent');
  assert.ok(absentRarity(common, new Set([0])) < absentRarity(rare, new Set([0])));
  assert.ok(absentRarity(rare, new Set([0])) > 0.9, 'a word the background prior does not list is rarest');
});

test("topicInHeading: the question's weightiest word in the passage's headings", async () => {
  const question = '¿Qué garantía tienen los colchones?';
  const groups = queryTermGroups(contentQuestion(question));
  const weights = groups.map((g) => (g.some((t) => t.startsWith('colchon')) ? 3 : 1));
  const relevance = new Relevance(groups, weights);
  const features = decisionFeatures({
    question,
    relevance,
    asked: null,
    hits: [hit('Tres años de garantía.', 5, 1, ['Colchones']), hit('Los colchones tienen garantía.', 4, 2, ['Otros'])],
    coverage: [1, 1],
  });
  const at = FEATURE_NAMES.indexOf('topicInHeading');
  assert.equal(features[0]![at], 1);
  assert.equal(features[1]![at], 0);
});

test('coverageLead: how far a passage stands above the best of the other first passages', async () => {
  assert.deepEqual(coverageLeads([0.8, 0.3, 0.5]), [0.8 - 0.5, 0.3 - 0.8, 0.5 - 0.8]);
  assert.deepEqual(coverageLeads([0.4, 0.4]), [0, 0], 'passages holding the question alike: none leads');
  assert.deepEqual(coverageLeads([0.6]), [0.6], 'alone, a passage leads by its coverage');
  // A deeper pool (how-to, where) is compared with the first passages only, as the decision is taken on them.
  const deep = [0.5, 0.2, 0.2, 0.2, 0.2, 0.9];
  assert.equal(LEAD_DEPTH, 5);
  assert.equal(coverageLeads(deep)[0], 0.5 - 0.2);
  assert.equal(coverageLeads(deep)[5], 0.9 - 0.5);
  const question = '¿Qué portátil me dan?';
  const features = decisionFeatures({
    question,
    relevance: relevanceOf(question),
    asked: null,
    hits: [hit('Te damos un portátil nuevo.', 5, 1), hit('Hablamos de oficinas.', 1, 2)],
    coverage: [1, 0],
  });
  const at = FEATURE_NAMES.indexOf('coverageLead');
  assert.equal(features[0]![at], 1);
  assert.equal(features[1]![at], -1);
});

test('a word found close in meaning in a retrieved passage is not counted as missing from the space', async () => {
  const question = '¿Dónde está el automóvil?';
  const groups = queryTermGroups(contentQuestion(question));
  const relevance = relevanceOf(question);
  const absent = groups.map(() => true);
  const context = {
    question,
    relevance,
    asked: 'place' as const,
    hits: [hit('El coche rojo está en el garaje.', 5, 1)],
    coverage: [1],
    absent,
    groups,
  };
  const at = (name: (typeof FEATURE_NAMES)[number]) => FEATURE_NAMES.indexOf(name);
  const alone = decisionFeatures(context)[0]!;
  assert.equal(alone[at('absentShare')], 1);
  const closeBy = decisionFeatures({ ...context, close: [new Set(groups.map((_, i) => i))] })[0]!;
  assert.equal(closeBy[at('absentShare')], 0);
  assert.equal(closeBy[at('absentRarity')], 0);
  assert.equal(closeBy[at('wordAbsent')], 1, 'the space still never says it');
});

test('a place a question names is held where a passage names the region that contains it', () => {
  const relevance = relevanceOf('Vivo en Palma, ¿cuánto cuesta el envío?');
  const texts = ['Zona 3: Islas Baleares, 89 €.'];
  const union = relevance.termsOf(texts.join(' '));
  assert.equal(nameHeld('Palma', relevance, union, texts), true);
  assert.equal(nameHeld('Palma', relevance, relevance.termsOf('Zona 2: resto de la España peninsular.'), []), false);
});
