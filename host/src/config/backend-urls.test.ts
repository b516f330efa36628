import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadHostConfig } from './host-config.js';

test('CEREBRO_DATABASE_URL and CEREBRO_REDIS_URL: unset is the embedded default, a wrong scheme is refused without echoing it', () => {
  const embedded = loadHostConfig({});
  assert.equal(embedded.databaseUrl, null);
  assert.equal(embedded.redisUrl, null);
  const scaled = loadHostConfig({
    CEREBRO_DATABASE_URL: 'postgresql://cerebro@db:5432/cerebro',
    CEREBRO_REDIS_URL: 'redis://cache:6379/2',
  });
  assert.equal(scaled.databaseUrl, 'postgresql://cerebro@db:5432/cerebro');
  assert.equal(scaled.redisUrl, 'redis://cache:6379/2');
  assert.throws(
    () => loadHostConfig({ CEREBRO_DATABASE_URL: 'mysql://u:clave@db/cerebro' }),
    (err: Error) => /CEREBRO_DATABASE_URL debe ser/.test(err.message) && !err.message.includes('clave'),
  );
  assert.throws(() => loadHostConfig({ CEREBRO_REDIS_URL: 'cache:6379' }), /CEREBRO_REDIS_URL debe ser/);
});

test('the embedded start loads neither database driver', async () => {
  // Importing the host's configuration and migrations must not pull pg or ioredis in (they load only when configured).
  await import('../storage/postgres/migrations/index.js');
  await import('../cli/admin-command.js');
  const loaded = Object.keys((await import('node:module')).createRequire(import.meta.url).cache);
  assert.equal(loaded.filter((f) => /node_modules\/(pg|ioredis)\//.test(f)).length, 0);
});
