import assert from 'node:assert/strict';
import { test } from 'node:test';
import { askedName, namesAsked } from './asked-name.js';

test('the asked noun of a "which X" question', () => {
  assert.ok(askedName('¿Qué programa usa FreedomBox para las copias de seguridad?')?.noun.has('programa'));
  assert.ok(askedName('Which browser is recommended?')?.noun.has('browser'));
  // A preposition may lead the question: "¿Con qué herramienta…?", "¿En qué programa…?".
  assert.ok(askedName('¿Con qué herramienta se configura el módem?')?.noun.has('herramienta'));
  assert.ok(askedName('¿En qué programa se editan las fotos?')?.noun.has('programa'));
  for (const q of [
    '¿Qué es un paquete virtual?',
    '¿Qué hago si falla?',
    '¿Qué hay en /etc?',
    '¿Cómo instalo Tor?',
    '¿Para qué sirve?',
  ]) {
    assert.equal(askedName(q), null, q);
  }
});

test('a unit names what was asked when it holds the noun and a name the question does not give', () => {
  const asked = askedName('¿Qué programa usa FreedomBox para las copias de seguridad?')!;
  assert.equal(namesAsked('Borg es un programa de backup con deduplicación y compresión.', asked), true);
  assert.equal(namesAsked('Las copias se hacen con el programa `borg` cada noche.', asked), true);
  assert.equal(
    namesAsked('FreedomBox incluye un programa para copiar y restaurar datos.', asked),
    false,
    'only a name the question gives',
  );
  assert.equal(namesAsked('Borg hace copias con deduplicación.', asked), false, 'no asked noun');
});
