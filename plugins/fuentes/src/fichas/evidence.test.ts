// The ficha rules on their own: support by the field's words, the sentence taken, conflicts, proposals.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PassageHit } from '@cerebro/sdk';
import { conflictOf, supportsFor } from './evidence.js';
import { proposeFields } from './field-proposer.js';

let id = 0;
const hit = (documento: string, texto: string, seccion: string | null = null): PassageHit => ({
  documento,
  documento_id: documento,
  pasaje: ++id,
  pagina: null,
  seccion,
  puntuacion: 1,
  posicion: id,
  texto,
  origen: null,
});

test("a passage supports a field only with the field's own words (text or heading), never by rank alone", () => {
  const hits = [
    hit('a', 'El plan Básico incluye soporte por correo.'),
    hit('b', 'El plan Básico cuesta 10 euros al mes. Incluye correo.', 'Precios'),
  ];
  const price = supportsFor('precio', 'plan Básico', hits);
  assert.deepEqual(
    price.map((s) => [s.hit.documento, s.sentence]),
    [['b', 'El plan Básico cuesta 10 euros al mes.']],
  );
  assert.deepEqual(supportsFor('fecha de lanzamiento', 'plan Básico', hits), []);
  assert.deepEqual(supportsFor('plan', 'plan Básico', []), []);
});

test('conflicts: the same unit with different figures in two documents; not within one document, not across units', () => {
  const ten = { hit: hit('precios', 'x'), sentence: 'El plan cuesta 10 euros al mes.', matched: 1 };
  const twelve = { hit: hit('blog', 'y'), sentence: 'Ahora cuesta 12 euros al mes.', matched: 1 };
  const hours = { hit: hit('soporte', 'z'), sentence: 'Atiende de 9 a 18 horas.', matched: 1 };
  const again = { hit: hit('precios', 'w'), sentence: 'El plan Avanzado cuesta 25 euros.', matched: 1 };
  const conflict = conflictOf([ten, twelve]);
  assert.deepEqual(
    conflict?.valores.map((v) => v.pasajes.map((p) => p.documento)),
    [['precios'], ['blog']],
  );
  assert.equal(conflictOf([ten, hours]), null, 'euros and hours are different things');
  assert.equal(conflictOf([ten, again]), null, 'one document listing two plans is no conflict');
  assert.equal(conflictOf([ten, { ...ten, hit: hit('copia', 'v') }]), null, 'two documents agreeing');
});

test('fields are proposed from headings, labels and table headers, the topic left out', () => {
  const fields = proposeFields('Plan Básico', [
    hit('a', 'Precio: 10 euros\nSoporte: correo', 'Plan Básico › Condiciones'),
    hit('b', '| Plan | Precio | Soporte |\n|---|---|---|\n| Básico | 10 | correo |', 'Tabla de planes'),
  ]);
  assert.deepEqual(fields.slice(0, 3), ['Precio', 'Soporte', 'Condiciones']);
  assert.ok(!fields.includes('Plan Básico'));
});
