import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadHostConfig } from './host-config.js';

test('Studio settings: session lifetimes, console folder and public address, with their refusals', () => {
  const defaults = loadHostConfig({}, '/srv');
  assert.equal(defaults.sessionIdleMs, 12 * 3_600_000);
  assert.equal(defaults.sessionMaxMs, 7 * 86_400_000);
  assert.match(defaults.studioDir, /host\/studio\/dist\/?$/);
  assert.equal(defaults.publicUrl, '');

  const set = loadHostConfig(
    {
      CEREBRO_SESSION_IDLE_MINUTES: '30',
      CEREBRO_SESSION_MAX_DAYS: '2',
      CEREBRO_STUDIO_DIR: 'consola',
      CEREBRO_PUBLIC_URL: 'https://cerebro.example.com/',
    },
    '/srv',
  );
  assert.deepEqual(
    [set.sessionIdleMs, set.sessionMaxMs, set.studioDir, set.publicUrl],
    [30 * 60_000, 2 * 86_400_000, '/srv/consola', 'https://cerebro.example.com'],
  );

  for (const [name, value] of [
    ['CEREBRO_SESSION_IDLE_MINUTES', '0'],
    ['CEREBRO_SESSION_MAX_DAYS', 'una semana'],
    ['CEREBRO_PUBLIC_URL', 'cerebro.example.com'],
    ['CEREBRO_PUBLIC_URL', 'ftp://cerebro.example.com'],
    ['CEREBRO_PUBLIC_URL', 'https://x.example.com/?a=1'],
    ['CEREBRO_PUBLIC_URL', 'https://u:p@x.example.com'],
  ] as const) {
    assert.throws(() => loadHostConfig({ [name]: value }), new RegExp(name), `${name}=${value}`);
  }
});
