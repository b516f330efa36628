import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeOriginals, parseOriginalsSetting } from './originals-setting.js';

const KEYS = { CEREBRO_ARCHIVOS_ACCESS_KEY: 'acceso', CEREBRO_ARCHIVOS_SECRET_KEY: 'secreto' };

test('CEREBRO_ARCHIVOS: unset is the data folder, fs: an absolute folder, s3:// a bucket with its prefix', () => {
  assert.deepEqual(parseOriginalsSetting({}), { kind: 'carpeta_de_datos' });
  assert.deepEqual(parseOriginalsSetting({ CEREBRO_ARCHIVOS: 'fs:/srv/archivos/' }), {
    kind: 'carpeta',
    dir: '/srv/archivos',
  });
  const minio = parseOriginalsSetting({
    ...KEYS,
    CEREBRO_ARCHIVOS: 's3://cubo/cerebro/prod?endpoint=http://127.0.0.1:9000&region=eu-west-1',
  });
  assert.deepEqual(minio, {
    kind: 's3',
    location: {
      bucket: 'cubo',
      prefix: 'cerebro/prod/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      pathStyle: true,
    },
    credentials: { accessKeyId: 'acceso', secretAccessKey: 'secreto' },
  });
  assert.equal(describeOriginals(minio), 's3://cubo/cerebro/prod/');
  // AWS itself: its regional endpoint, virtual-hosted addressing, the standard variables and a session token.
  const aws = parseOriginalsSetting({
    CEREBRO_ARCHIVOS: 's3://cubo',
    AWS_ACCESS_KEY_ID: 'a',
    AWS_SECRET_ACCESS_KEY: 's',
    AWS_SESSION_TOKEN: 't',
  });
  assert.ok(aws.kind === 's3');
  assert.deepEqual(aws.location, {
    bucket: 'cubo',
    prefix: '',
    endpoint: 'https://s3.us-east-1.amazonaws.com',
    region: 'us-east-1',
    pathStyle: false,
  });
  assert.equal(aws.credentials.sessionToken, 't');
});

test('CEREBRO_ARCHIVOS refuses what it cannot use, naming the problem and never repeating keys', () => {
  const refused = (value: string, env: NodeJS.ProcessEnv = KEYS) =>
    assert.throws(() => parseOriginalsSetting({ ...env, CEREBRO_ARCHIVOS: value }), /^Error: CEREBRO_ARCHIVOS /);
  refused('fs:relativa/carpeta');
  refused('/srv/archivos');
  refused('s3://');
  refused('s3://cubo?endpoint=ftp://servidor');
  refused('s3://cubo?endpoint=http://servidor/ruta');
  refused('s3://cubo?path_style=quizá');
  refused('s3://cubo?regiom=eu-west-1');
  refused('s3://cubo', {});
  assert.throws(
    () => parseOriginalsSetting({ ...KEYS, CEREBRO_ARCHIVOS: 's3://usuario:clave-secreta@cubo' }),
    (err: Error) => !err.message.includes('clave-secreta'),
  );
});
