import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPersona, REGLAS_FIJAS } from './persona.js';
import { applyBrandPatch } from './patch.js';
import { defaultBrand } from './defaults.js';
import type { BrandConfig } from './types.js';

function brand(body: unknown): BrandConfig {
  const r = applyBrandPatch(defaultBrand('deportes-ruiz'), body);
  assert.ok(r.ok);
  return r.brand;
}

const configured = brand({
  name: 'Deportes Ruiz',
  identidad: { nombre_agente: 'Sofía', rol: 'asesora de ventas', linea: 'tienda de ropa deportiva' },
  estilo: {
    tono: ['cercano', 'entusiasta'],
    rasgos: ['empatico', 'experto'],
    max_lineas: 4,
    solo_texto_plano: true,
    emojis_permitidos: ['👟', '😊'],
    emojis_obligatorios: ['👟'],
  },
});

test('regla 10: identidad y name forman la primera frase de la descripción', () => {
  const first = buildPersona(configured).split('\n')[0];
  assert.equal(first, 'Eres Sofía, asesora de ventas de Deportes Ruiz, tienda de ropa deportiva.');
});

test('regla 10: un rol que ya nombra la tienda no la repite', () => {
  const owning = brand({
    name: 'Ferretería El Martillo',
    identidad: { nombre_agente: 'Sofía', rol: 'asesora de ventas de Ferreteria el Martillo', linea: '' },
  });
  assert.equal(buildPersona(owning).split('\n')[0], 'Eres Sofía, asesora de ventas de Ferreteria el Martillo.');
});

test('regla 11: /persona es el texto completo que lee el agente, en orden fijo', () => {
  const lines = buildPersona(configured).split('\n');
  assert.match(lines[1], /^Tu tono es cercano: .* y entusiasta: /);
  assert.match(lines[2], /^Tus rasgos: empatico \(.*\) y experto \(.*\)\.$/);
  assert.equal(lines[3], 'Responde en 4 líneas como máximo.');
  assert.match(lines[4], /^Escribe solo texto plano/);
  assert.equal(lines[5], 'Usa solo estos emojis: 👟 😊.');
  assert.equal(lines[6], 'Incluye siempre en cada respuesta: 👟.');
  assert.match(lines[7], /^Reglas que siempre cumples: /);
  assert.equal(lines.length, 8);
  assert.equal(buildPersona(configured), buildPersona(structuredClone(configured)), 'deterministic');
});

test('regla 4: la descripción siempre termina con las reglas fijas, con cualquier marca', () => {
  const minimal = brand({ estilo: { tono: [], rasgos: [], max_lineas: 1, solo_texto_plano: false } });
  for (const b of [configured, minimal, defaultBrand('x')]) {
    const text = buildPersona(b);
    assert.ok(text.endsWith(REGLAS_FIJAS[REGLAS_FIJAS.length - 1]));
    for (const rule of REGLAS_FIJAS) assert.ok(text.includes(rule));
  }
  assert.match(REGLAS_FIJAS.join(' '), /precios, totales, plazos, descuentos ni disponibilidad/);
  assert.match(REGLAS_FIJAS.join(' '), /procesos internos/);
  assert.match(REGLAS_FIJAS.join(' '), /asesor humano/);
});

test('regla 3: sin emojis permitidos la descripción los prohíbe; una línea en singular', () => {
  const text = buildPersona(brand({ estilo: { max_lineas: 1 } }));
  assert.ok(text.includes('No uses emojis.'));
  assert.ok(text.includes('Responde en una sola línea.'));
  assert.ok(text.startsWith('Eres Asistente, asesor de ventas de deportes-ruiz.'));
});
