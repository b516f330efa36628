import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import type { HostConfig } from '../config/host-config.js';
import { openMigratedTestDatabase } from '../storage/sqlite/access-fixture.js';
import { SqliteAuditLogRepository } from '../storage/sqlite/audit-log-repository.js';
import { SqliteProcessLeaseRepository } from '../storage/sqlite/process-lease-repository.js';
import { withoutSecrets } from './audit-redaction.js';
import { StoredAuditTrail } from './audit-trail.js';

const DAY = 86_400_000;

async function trailAt(days: number) {
  const { db, close } = openMigratedTestDatabase();
  let now = Date.parse('2026-06-01T00:00:00.000Z');
  const trail = new StoredAuditTrail(
    new SqliteAuditLogRepository(db),
    new SqliteProcessLeaseRepository(db),
    { now: () => now },
    { auditRetentionDays: days } as HostConfig,
    pino({ level: 'silent' }),
  );
  return { trail, close, setNow: (t: number) => (now = t), now: () => now };
}

const entry = { action: 'clave.creada', actor: { kind: 'persona' as const, id: 'own_a', email: null, name: null } };

test('retention: events older than the configured days are purged; 0 keeps them forever', async () => {
  const kept = await trailAt(30);
  try {
    await kept.trail.record(entry);
    kept.setNow(kept.now() + 20 * DAY);
    await kept.trail.record({ ...entry, action: 'clave.revocada' });
    kept.setNow(kept.now() + 15 * DAY);
    assert.equal(await kept.trail.purgeExpired(), 1, 'the 35-day-old event goes, the 15-day-old one stays');
    assert.deepEqual(
      (await kept.trail.list({}, 10)).map((e) => e.action),
      ['clave.revocada'],
    );
  } finally {
    await kept.close();
  }
  const forever = await trailAt(0);
  try {
    await forever.trail.record(entry);
    forever.setNow(forever.now() + 5000 * DAY);
    assert.equal(await forever.trail.purgeExpired(), 0);
    assert.equal((await forever.trail.list({}, 10)).length, 1);
  } finally {
    await forever.close();
  }
});

test('what is kept of settings: secrets hidden by field name, long texts cut, the rest as it was', async () => {
  const { trail, close } = await trailAt(30);
  try {
    await trail.record({
      ...entry,
      before: { url: 'https://example.com/hook', secreto: 'whsec_abc', nested: { api_key: 'k', limite: 3 } },
      after: { token: 'crb_x.y', texto: 'x'.repeat(2000), tiene_clave: true },
    });
    const [stored] = await trail.list({}, 1);
    assert.deepEqual(JSON.parse(stored!.beforeJson!), {
      url: 'https://example.com/hook',
      secreto: '[oculto]',
      nested: { api_key: '[oculto]', limite: 3 },
    });
    const after = JSON.parse(stored!.afterJson!);
    assert.equal(after.token, '[oculto]');
    assert.equal(after.tiene_clave, true, 'whether an owner has a password is not the password');
    assert.equal(after.texto.length, 501);
  } finally {
    await close();
  }
  assert.deepEqual(withoutSecrets([{ password: 'p' }, 1, null]), [{ password: '[oculto]' }, 1, null]);
});
