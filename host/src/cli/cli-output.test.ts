import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatHuman } from './cli-output.js';

test('an empty list reads as none, except a key’s spaces, which then are all its owner’s', () => {
  assert.equal(
    formatHuman({ id: 'own_1', nombre: 'Ana', espacios: [] }),
    'id: own_1\nnombre: Ana\nespacios: (ninguno)',
    'an owner without spaces',
  );
  assert.equal(
    formatHuman({ carpeta: '/b', ausentes: [] }),
    'carpeta: /b\nausentes: (ninguno)',
    'a backup missing nothing',
  );
  assert.equal(
    formatHuman({ id: 'k1', espacios: [], permiso: 'lee' }),
    'id: k1\nespacios: (todos los del propietario)\npermiso: lee',
  );
  assert.equal(
    formatHuman({
      claves: [
        { id: 'k1', espacios: [], permiso: 'lee' },
        { id: 'k2', espacios: ['a', 'b'], permiso: 'escribe' },
      ],
    }),
    'claves:\n  - id=k1 espacios=(todos los del propietario) permiso=lee\n  - id=k2 espacios=a, b permiso=escribe',
  );
});
