import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyBrandPatch } from './patch.js';
import { defaultBrand, defaultEstilo, defaultTacticas } from './defaults.js';
import { brandFromStored } from './stored.js';
import type { BrandConfig } from './types.js';

function patchOk(current: BrandConfig, body: unknown): BrandConfig {
  const r = applyBrandPatch(current, body);
  assert.ok(r.ok, r.ok ? '' : r.detail);
  return r.brand;
}

function patchErrors(body: unknown): string[] {
  const r = applyBrandPatch(defaultBrand('tienda'), body);
  assert.equal(r.ok, false);
  return r.ok ? [] : r.errores.map((e) => e.campo);
}

test('regla 12: una marca nunca configurada devuelve los valores por defecto con name = id del espacio', () => {
  const b = brandFromStored('zapateria-sur', null);
  assert.equal(b.name, 'zapateria-sur');
  assert.deepEqual(b.estilo, defaultEstilo());
  assert.deepEqual(b.tacticas, defaultTacticas());
  assert.equal(typeof b.activo, 'boolean');
});

test('a section sent whole replaces the stored one; missing fields inside return to defaults', () => {
  const configured = patchOk(defaultBrand('t'), {
    estilo: { tono: ['formal'], rasgos: ['paciente'], max_lineas: 3, solo_texto_plano: false },
  });
  const next = patchOk(configured, { estilo: { max_lineas: 2 } });
  assert.equal(next.estilo.max_lineas, 2);
  assert.deepEqual(next.estilo.tono, defaultEstilo().tono);
  assert.equal(next.estilo.solo_texto_plano, defaultEstilo().solo_texto_plano);
});

test('everything not sent stays as it was', () => {
  const configured = patchOk(defaultBrand('t'), {
    name: 'Deportes Ruiz',
    activo: false,
    identidad: { nombre_agente: 'Sofía', rol: 'asesora de ventas' },
  });
  const next = patchOk(configured, { tacticas: { upsell_activo: true } });
  assert.equal(next.name, 'Deportes Ruiz');
  assert.equal(next.activo, false);
  assert.equal(next.identidad.nombre_agente, 'Sofía');
  assert.equal(next.tacticas.upsell_activo, true);
  assert.equal(configured.tacticas.upsell_activo, false, 'the input brand is not mutated');
});

test('tono and rasgos are folded to their canonical form', () => {
  const b = patchOk(defaultBrand('t'), { estilo: { tono: ['Técnico'], rasgos: ['EMPÁTICO'] } });
  assert.deepEqual(b.estilo.tono, ['tecnico']);
  assert.deepEqual(b.estilo.rasgos, ['empatico']);
});

test('type errors name the field, in Spanish, all at once', () => {
  const r = applyBrandPatch(defaultBrand('t'), {
    activo: 'si',
    estilo: { max_lineas: '4', tono: ['gritón'], solo_texto_plano: 1 },
    color: 'rojo',
  });
  assert.equal(r.ok, false);
  if (r.ok) return;
  const campos = r.errores.map((e) => e.campo);
  assert.deepEqual(
    campos.sort(),
    ['activo', 'color', 'estilo.max_lineas', 'estilo.solo_texto_plano', 'estilo.tono'].sort(),
  );
  assert.match(r.detail, /estilo\.max_lineas: debe ser un número entero entre 1 y 20/);
  assert.match(r.detail, /activo: debe ser verdadero o falso/);
  assert.match(r.detail, /color: campo desconocido/);
});

test('sections must be objects and the body an object', () => {
  assert.deepEqual(patchErrors({ identidad: 'Sofía' }), ['identidad']);
  assert.deepEqual(patchErrors([1, 2]), ['']);
  assert.deepEqual(patchErrors({ tacticas: { upsell_combos: ['a'] } }), ['tacticas.upsell_combos']);
});

test('contradictory tones, emojis outside the allowed list and non-emoji strings are refused', () => {
  assert.deepEqual(patchErrors({ estilo: { tono: ['cercano', 'formal'] } }), ['estilo.tono']);
  assert.deepEqual(patchErrors({ estilo: { emojis_permitidos: ['😊'], emojis_obligatorios: ['👟'] } }), [
    'estilo.emojis_obligatorios',
  ]);
  assert.deepEqual(patchErrors({ estilo: { emojis_permitidos: ['ok'] } }), ['estilo.emojis_permitidos']);
  const b = patchOk(defaultBrand('t'), {
    estilo: { emojis_permitidos: ['👍🏽', '❤️', '👟'], emojis_obligatorios: ['👟'] },
  });
  assert.deepEqual(b.estilo.emojis_obligatorios, ['👟']);
});

test('tactics texts cannot carry figures and the template needs {combo}', () => {
  assert.deepEqual(patchErrors({ tacticas: { upsell_argumento: 'Ahorras 20%' } }), ['tacticas.upsell_argumento']);
  assert.deepEqual(patchErrors({ tacticas: { preguntas_cierre: ['¿Lo quieres en 24 horas?'] } }), [
    'tacticas.preguntas_cierre[0]',
  ]);
  assert.deepEqual(patchErrors({ tacticas: { upsell_plantilla: 'Llévate también algo' } }), [
    'tacticas.upsell_plantilla',
  ]);
  assert.deepEqual(patchErrors({ tacticas: { upsell_plantilla: 'Con {combo} y {precio}' } }), [
    'tacticas.upsell_plantilla',
  ]);
});

test('a stored row with missing fields comes back complete', () => {
  const b = brandFromStored('t', { name: 'X', estilo: { max_lineas: 2 } });
  assert.equal(b.name, 'X');
  assert.equal(b.estilo.max_lineas, 2);
  assert.deepEqual(b.estilo.rasgos, defaultEstilo().rasgos);
});
