// A tenant made through the operator's API, as the tests of several processes need one per check: a new owner, a
// space of their own (module api) and a write key to it.
import assert from 'node:assert/strict';
import { callAt, json } from './bearer-call.js';

/** A new owner with a space `id` (module api) and a write key to it, made with the operator credential at `root`. */
export async function freshSpace(root: string, operator: string, id: string): Promise<string> {
  const owner = await callAt(root, operator, '/admin/propietarios', json('POST', { nombre: `Prueba ${id}` }));
  assert.equal(owner.status, 201, JSON.stringify(owner.body));
  const space = await callAt(
    root,
    operator,
    '/admin/espacios',
    json('POST', { id, propietario: owner.body.id, modulos: ['api'] }),
  );
  assert.equal(space.status, 201, JSON.stringify(space.body));
  const issued = await callAt(
    root,
    operator,
    `/admin/propietarios/${owner.body.id}/claves`,
    json('POST', { nombre: id, espacios: [id], permiso: 'escribe' }),
  );
  assert.equal(issued.status, 201, JSON.stringify(issued.body));
  return issued.body.token.token as string;
}
