// The value a question asks for, as precisely as it says it: what the composer looks for in a unit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { askedType, askedValueTest } from './answer-type.js';
import { questionKind } from './question-kind.js';

const testOf = (question: string) => askedValueTest(question, askedType(question, questionKind(question)))!;

test('"¿a qué hora…?" and "¿qué horario…?" ask for a time of day, not a span nor a word for time', () => {
  for (const q of ['¿A qué hora empieza el turno de guardia?', '¿Cuál es vuestro horario?']) {
    const holds = testOf(q);
    assert.equal(holds('La guardia va del lunes a las 10:00 al lunes siguiente.'), true, q);
    assert.equal(holds('Sábados: 10–14 h.'), true, q);
    assert.equal(holds('Domingos: cerrado.'), true, q);
    assert.equal(holds('Se pagan 450 pesos por cada hora de incidente.'), false, q);
    assert.equal(holds('Los pedidos llegan en 48 horas.'), false, q);
  }
});

test('"¿cuánto tarda…?" asks for a span: a number with its unit of time', () => {
  const holds = testOf('¿Cuánto tardan los sofás hechos a medida?');
  assert.equal(holds('Tienen un plazo de fabricación adicional de 4 a 6 semanas.'), true);
  assert.equal(holds('Llega en 48 horas.'), true);
  assert.equal(holds('Se entregan en quince días hábiles.'), true);
  assert.equal(holds('Te avisamos cuando estén listos, de lunes a viernes.'), false);
});

test('"¿cuánto cuesta…?" asks for an amount of money, or that it is free', () => {
  const holds = testOf('¿Cuánto cuesta el montaje?');
  assert.equal(holds('El montaje cuesta el 10 % del pedido.'), true);
  assert.equal(holds('El envío cuesta 29 €.'), true);
  assert.equal(holds('precio: 4990; moneda: CLP'), true);
  assert.equal(holds('Es gratis a partir de 500 €.'), true);
  assert.equal(holds('Montamos en 2 días.'), false);
});

test('a question that narrows nothing takes any value of its kind; one asking no kind has no test', () => {
  const holds = testOf('¿Cuántos usuarios admite el plan básico?');
  assert.equal(holds('Admite 3 usuarios.'), true);
  assert.equal(holds('Admite varios usuarios.'), false);
  assert.equal(askedValueTest('¿Qué es un paquete?', null), null);
});

test('"¿con qué opción…?", "¿qué tecla…?" ask for the name of a switch, a setting or a key', () => {
  assert.equal(
    askedType('¿Con qué opción de dpkg instalo un .deb?', questionKind('¿Con qué opción de dpkg?')),
    'option',
  );
  const holds = testOf('¿Qué tecla pulso para entrar en la BIOS?');
  assert.equal(holds('Pulse F2 o Supr al arrancar.'), true);
  assert.equal(holds('Para hacer esto utilizamos su opción `-i` o `--install`.'), true);
  assert.equal(holds('Se fija con APT::Default-Release en la configuración.'), true);
  assert.equal(holds('Reinicie el equipo y entre en la configuración.'), false);
});

test('"¿en qué archivo…?", "¿dónde se configura…?" ask for a path or a file name, not a cross-reference', () => {
  for (const q of ['¿En qué archivo se guarda el nombre de la máquina?', '¿Dónde se configuran las prioridades?']) {
    const holds = testOf(q);
    assert.equal(holds('Se indican en el archivo `/etc/apt/preferences`.'), true, q);
    assert.equal(holds('Edite resolv.conf.'), true, q);
    assert.equal(holds('Como se explica en la Sección 6.2.5, en el archivo de configuración.'), false, q);
  }
  // Where a shop is: any place.
  assert.equal(testOf('¿Dónde está la tienda?')('Estamos en la Avenida del Puerto 212.'), true);
});

test('a yes/no question about a charge ("¿Cobráis por montar…?") asks for the amount, as "¿cuánto…?" does', () => {
  for (const q of ['¿Cobráis por montar los muebles?', 'Si devuelvo una mesa, ¿me cobran la recogida?']) {
    assert.equal(askedType(q, questionKind(q)), 'number', q);
    const holds = testOf(q);
    assert.equal(holds('El precio es el 10 % del importe, con un mínimo de 39 €.'), true, q);
    assert.equal(holds('Los sofás no necesitan montaje.'), false, q);
  }
  // Other yes/no questions ask for no value ("¿Puedo pagar a plazos?" is answered by the conditions).
  assert.equal(askedType('¿Puedo pagar a plazos?', questionKind('¿Puedo pagar a plazos?')), null);
});
