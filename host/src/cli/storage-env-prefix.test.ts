import assert from 'node:assert/strict';
import { test } from 'node:test';
import { storageEnvPrefix } from './storage-env-prefix.js';

test('a hint names the storage the process was given, quoted for a shell, a database password as a placeholder', () => {
  assert.equal(storageEnvPrefix({}, '/work/data'), '', 'the defaults need nothing');
  assert.equal(storageEnvPrefix({ CEREBRO_DATA_DIR: 'datos' }, '/srv/app/datos'), 'CEREBRO_DATA_DIR=/srv/app/datos ');
  assert.equal(
    storageEnvPrefix({ CEREBRO_DATA_DIR: 'x' }, "/srv/mis datos/l'equipo"),
    `CEREBRO_DATA_DIR='/srv/mis datos/l'\\''equipo' `,
  );
  assert.equal(
    storageEnvPrefix({ CEREBRO_DATABASE_URL: 'postgres://cerebro:s3cr3t@db:5432/cerebro' }, '/d'),
    "CEREBRO_DATABASE_URL='postgres://cerebro:<contraseña>@db:5432/cerebro' ",
  );
  assert.equal(
    storageEnvPrefix({ CEREBRO_DATABASE_URL: 'postgres://127.0.0.1:5432/test' }, '/d'),
    'CEREBRO_DATABASE_URL=postgres://127.0.0.1:5432/test ',
  );
});
