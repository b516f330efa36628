import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Plan } from '../model.js';
import { applyInstructions, parseInstructions } from './instructions.js';

const PLAN: Plan = {
  secciones: ['hero', 'beneficios', 'precios', 'cta'],
  titular: null,
  cta_texto: null,
  tema_color: 'azul',
  longitud: 'media',
};

function apply(text: string): Plan {
  const parsed = parseInstructions(text);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  return applyInstructions(PLAN, parsed.instrucciones);
}

test('headline and CTA text, written as "campo: texto" or as a sentence', () => {
  assert.equal(apply('titular: "Corre más lejos"').titular, 'Corre más lejos');
  assert.equal(apply('Cambia el titular a Corre más lejos').titular, 'Corre más lejos');
  assert.equal(apply('botón: Compra ya').cta_texto, 'Compra ya');
  assert.equal(apply('cambia el botón por «Pide el tuyo»').cta_texto, 'Pide el tuyo');
});

test('sections: add in their default place, remove, reorder and move', () => {
  assert.deepEqual(apply('añade preguntas frecuentes').secciones, [
    'hero',
    'beneficios',
    'precios',
    'preguntas_frecuentes',
    'cta',
  ]);
  assert.deepEqual(apply('añade características').secciones, [
    'hero',
    'beneficios',
    'caracteristicas',
    'precios',
    'cta',
  ]);
  assert.deepEqual(apply('quita los beneficios').secciones, ['hero', 'precios', 'cta']);
  assert.deepEqual(apply('orden: cta, precios').secciones, ['hero', 'cta', 'precios', 'beneficios']);
  assert.deepEqual(
    apply('orden: precios, hero').secciones,
    ['hero', 'precios', 'beneficios', 'cta'],
    'the portada always opens the page',
  );
  assert.deepEqual(apply('mueve precios antes de beneficios').secciones, ['hero', 'precios', 'beneficios', 'cta']);
  assert.deepEqual(apply('mueve la portada al final').secciones, ['hero', 'beneficios', 'precios', 'cta']);
  assert.deepEqual(apply('quita la portada; mueve precios al principio').secciones, ['precios', 'beneficios', 'cta']);
});

test('theme and length, several instructions in one text applied in order', () => {
  const plan = apply('tema: verde\nmás corta; más corta; colores oscuro');
  assert.deepEqual([plan.tema_color, plan.longitud], ['oscuro', 'corta']);
  assert.equal(apply('más largo').longitud, 'larga');
  assert.equal(apply('longitud: corta').longitud, 'corta');
});

test('anything outside the set is reported, every one of them, never guessed', () => {
  const parsed = parseInstructions('hazla más moderna; añade testimonios; tema: fucsia; titular: ok');
  assert.equal(parsed.ok, false);
  if (parsed.ok) return;
  assert.deepEqual(
    parsed.errores.map((e) => e.instruccion),
    ['hazla más moderna', 'añade testimonios', 'tema: fucsia', 'titular: ok'],
  );
  assert.match(parsed.errores[1].motivo, /sección desconocida/);
  assert.match(parsed.errores[2].motivo, /tema desconocido/);
  assert.equal(parseInstructions('  ;  ').ok, false);
});
