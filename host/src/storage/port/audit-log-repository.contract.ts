import assert from 'node:assert/strict';
import type { AuditEventRecord, AuditLogRepository } from './audit-log-repository.js';
import { contractCase } from './contract-case.js';

const event = (over: Partial<AuditEventRecord>): AuditEventRecord => ({
  at: '2026-03-01T10:00:00.000Z',
  actorKind: 'persona',
  actorId: 'own_a',
  actorEmail: 'ana@example.com',
  actorName: null,
  action: 'clave.creada',
  targetKind: 'clave',
  targetId: 'k1',
  ownerId: 'own_a',
  spaceId: null,
  ip: '203.0.113.7',
  requestId: 'req-1',
  route: 'POST /tokens',
  beforeJson: null,
  afterJson: null,
  detailsJson: null,
  ...over,
});

/** The behaviour every audit-log backend must show (run per backend by its own test file). */
export function auditLogRepositoryContract(
  name: string,
  make: () => Promise<{ repo: AuditLogRepository; close(): Promise<void> }>,
): void {
  const it = contractCase(name, make);

  it('events come back newest first, whole, and the cursor pages through them', async ({ repo }) => {
    const first = await repo.append(event({ beforeJson: '{"a":1}', afterJson: '{"a":2}', detailsJson: '{"x":true}' }));
    const second = await repo.append(event({ at: '2026-03-01T10:01:00.000Z', action: 'clave.revocada' }));
    const third = await repo.append(event({ at: '2026-03-01T10:02:00.000Z', action: 'api_config.modificada' }));
    assert.ok(first < second && second < third);
    const page = await repo.list({}, 2);
    assert.deepEqual(
      page.map((e) => e.action),
      ['api_config.modificada', 'clave.revocada'],
    );
    const rest = await repo.list({ beforeSeq: page[1]!.seq }, 2);
    assert.equal(rest.length, 1);
    assert.deepEqual(rest[0], {
      ...event({ beforeJson: '{"a":1}', afterJson: '{"a":2}', detailsJson: '{"x":true}' }),
      seq: first,
    });
  });

  it('filters by owner, space, actor, action prefix and time', async ({ repo }) => {
    await repo.append(event({ at: '2026-03-01T09:00:00.000Z' }));
    await repo.append(event({ ownerId: 'own_b', actorId: 'own_b', actorEmail: 'Bea@Example.com' }));
    await repo.append(event({ spaceId: 'demo', action: 'api_config.modificada', at: '2026-03-02T00:00:00.000Z' }));
    await repo.append(
      event({ actorKind: 'clave', actorId: 'k9', actorEmail: null, actorName: 'bot', action: 'clave.revocada' }),
    );
    await repo.append(event({ actorKind: 'operador', actorId: 'cli', ownerId: null, action: 'creditos.anadidos' }));
    const actions = async (filter: Parameters<AuditLogRepository['list']>[0]) =>
      (await repo.list(filter, 50)).map((e) => `${e.action}@${e.actorId}`);
    assert.equal((await repo.list({ ownerId: 'own_a' }, 50)).length, 3);
    assert.deepEqual(await actions({ spaceId: 'demo' }), ['api_config.modificada@own_a']);
    assert.deepEqual(await actions({ actorKind: 'clave' }), ['clave.revocada@k9']);
    assert.deepEqual(await actions({ actor: 'bea@example.com' }), ['clave.creada@own_b']);
    assert.deepEqual(await actions({ actor: 'k9' }), ['clave.revocada@k9']);
    assert.deepEqual(await actions({ action: 'clave.', ownerId: 'own_a' }), [
      'clave.revocada@k9',
      'clave.creada@own_a',
    ]);
    assert.deepEqual(await actions({ action: 'clave' }), [], 'without the dot an action is exact');
    assert.deepEqual(await actions({ action: 'creditos.anadidos' }), ['creditos.anadidos@cli']);
    assert.deepEqual(
      await actions({ since: '2026-03-01T10:00:00.000Z', until: '2026-03-02T00:00:00.000Z', ownerId: 'own_a' }),
      ['clave.revocada@k9'],
    );
  });

  it('a `%` or `_` in a filter is a plain character, not a wildcard', async ({ repo }) => {
    await repo.append(event({ action: 'clave.creada' }));
    assert.deepEqual(await repo.list({ action: 'clave_creada' }, 5), []);
    assert.deepEqual(await repo.list({ action: '%.' }, 5), []);
    assert.deepEqual(await repo.list({ actor: '%' }, 5), []);
  });

  it('purgeBefore deletes exactly the older events', async ({ repo }) => {
    await repo.append(event({ at: '2025-01-01T00:00:00.000Z' }));
    await repo.append(event({ at: '2025-06-01T00:00:00.000Z' }));
    await repo.append(event({ at: '2026-01-01T00:00:00.000Z' }));
    assert.equal(await repo.purgeBefore('2025-06-01T00:00:00.000Z'), 1);
    assert.deepEqual(
      (await repo.list({}, 10)).map((e) => e.at),
      ['2026-01-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z'],
    );
  });
}
