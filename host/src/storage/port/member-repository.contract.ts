import assert from 'node:assert/strict';
import type { AccessFixture } from './access-fixture.js';
import type { ConsoleSessionRepository } from './console-session-repository.js';
import { contractCase } from './contract-case.js';
import type { MemberRepository, NewInvitation } from './member-repository.js';

export interface MemberFixture {
  repo: MemberRepository;
  sessions: ConsoleSessionRepository;
  fixture: AccessFixture;
  close(): Promise<void>;
}

const T0 = '2026-03-01T00:00:00.000Z';
/** The owner of each space of the fixture (`spaces`), who gives its invitations. */
const OWNER_OF: Record<string, string> = { sol: 'own_a', luna: 'own_b' };
const invitation = (
  id: string,
  spaceId: string,
  email: string,
  role: NewInvitation['role'],
  ownerId = OWNER_OF[spaceId]!,
): NewInvitation => ({
  id,
  spaceId,
  ownerId,
  email,
  role,
  secretDigest: Buffer.from(`digest-${id}`),
  createdAt: T0,
  expiresAt: '2026-03-08T00:00:00.000Z',
});
const newMember = (id: string, email: string) => ({
  newMember: { id, email, name: `Nombre ${id}`, passwordDigest: `scrypt$${id}` },
});

/** Two owners with a space each (`sol` of `own_a`, `luna` of `own_b`), and `own_a` read-only on the third. */
async function spaces(fixture: AccessFixture): Promise<void> {
  await fixture.owner({ id: 'own_a' });
  await fixture.owner({ id: 'own_b', readOnly: true });
  await fixture.account({ id: 'acc_a', ownerId: 'own_a' });
  await fixture.account({ id: 'acc_b', ownerId: 'own_b' });
  await fixture.space({ id: 'sol', ownerId: 'own_a', accountId: 'acc_a' });
  await fixture.space({ id: 'luna', ownerId: 'own_b', accountId: 'acc_b' });
}

/** The behaviour every members backend must show (run per backend by storage/contracts/member-repository.test.ts). */
export function memberRepositoryContract(name: string, make: () => Promise<MemberFixture>): void {
  const test = contractCase(name, make);

  test('accepting creates the member once, with the role; a second use writes nothing', async ({ repo, fixture }) => {
    await spaces(fixture);
    await repo.insertInvitation(invitation('i1', 'sol', 'ana@example.com', 'edita'));
    assert.equal(await repo.accept('i1', '2026-03-01T01:00:00.000Z', newMember('mem_1', 'ana@example.com')), 'mem_1');
    assert.equal(await repo.accept('i1', '2026-03-01T01:00:01.000Z', newMember('mem_2', 'otra@example.com')), null);
    assert.equal(await repo.byEmail('otra@example.com'), undefined, 'the refused acceptance wrote nothing');
    const ana = await repo.byEmail('ana@example.com');
    assert.equal(ana?.id, 'mem_1');
    assert.equal(ana?.passwordDigest, 'scrypt$mem_1');
    assert.deepEqual(await repo.membership('mem_1', 'sol'), { role: 'edita', ownerReadOnly: false });
    assert.equal((await repo.invitation('i1'))?.acceptedAt, '2026-03-01T01:00:00.000Z');
    assert.deepEqual(await repo.pendingInvitations('sol', '2026-03-01T02:00:00.000Z'), []);
  });

  test('an expired or revoked invitation is not accepted', async ({ repo, fixture }) => {
    await spaces(fixture);
    await repo.insertInvitation(invitation('i1', 'sol', 'ana@example.com', 'edita'));
    await repo.insertInvitation(invitation('i2', 'sol', 'bea@example.com', 'consulta'));
    assert.equal(await repo.accept('i1', '2026-03-08T00:00:00.000Z', newMember('mem_1', 'ana@example.com')), null);
    assert.equal(await repo.revokeInvitation('i2', 'luna', T0), false, 'only in its own space');
    assert.equal(await repo.revokeInvitation('i2', 'sol', T0), true);
    assert.equal(await repo.revokeInvitation('i2', 'sol', T0), false, 'already revoked');
    assert.equal(await repo.accept('i2', T0, newMember('mem_2', 'bea@example.com')), null);
    assert.equal(await repo.byEmail('ana@example.com'), undefined);
  });

  test('two acceptances of one invitation at once: exactly one member', async ({ repo, fixture }) => {
    await spaces(fixture);
    await repo.insertInvitation(invitation('i1', 'sol', 'ana@example.com', 'edita'));
    const results = await Promise.all(
      ['mem_1', 'mem_2', 'mem_3'].map((id) => repo.accept('i1', T0, newMember(id, `${id}@example.com`))),
    );
    assert.equal(results.filter((r) => r !== null).length, 1);
  });

  test('a member of two owners: memberships, roles, removal', async ({ repo, fixture }) => {
    await spaces(fixture);
    await repo.insertInvitation(invitation('i1', 'sol', 'ana@example.com', 'administra'));
    await repo.insertInvitation(invitation('i2', 'luna', 'ana@example.com', 'consulta'));
    await repo.accept('i1', T0, newMember('mem_1', 'ana@example.com'));
    assert.equal(await repo.accept('i2', T0, { existingId: 'mem_1' }), 'mem_1');
    assert.deepEqual(await repo.memberships('mem_1'), [
      { spaceId: 'luna', role: 'consulta' },
      { spaceId: 'sol', role: 'administra' },
    ]);
    assert.deepEqual(await repo.membership('mem_1', 'luna'), { role: 'consulta', ownerReadOnly: true });
    const listed = await repo.spaceMembers('sol');
    assert.deepEqual(listed, [
      { memberId: 'mem_1', email: 'ana@example.com', name: 'Nombre mem_1', role: 'administra', createdAt: T0 },
    ]);
    assert.deepEqual(await repo.spaceMember('sol', 'mem_1'), listed[0]);
    assert.equal(await repo.setRole('sol', 'mem_1', 'edita'), true);
    assert.equal(await repo.setRole('sol', 'mem_nadie', 'edita'), false);
    assert.equal((await repo.membership('mem_1', 'sol'))?.role, 'edita');
    assert.equal(await repo.remove('sol', 'mem_1'), true);
    assert.equal(await repo.remove('sol', 'mem_1'), false);
    assert.equal(await repo.membership('mem_1', 'sol'), undefined);
    assert.deepEqual(await repo.memberships('mem_1'), [{ spaceId: 'luna', role: 'consulta' }]);
    assert.deepEqual(await repo.byId('mem_1'), await repo.byEmail('ana@example.com'));
  });

  test('a membership counts only while the space is of the owner who gave it', async ({ repo, fixture }) => {
    await spaces(fixture);
    // An invitation own_b gave for `sol` before the space became own_a's (the operator moved it).
    await repo.insertInvitation(invitation('i1', 'sol', 'ana@example.com', 'administra', 'own_b'));
    assert.equal(await repo.accept('i1', T0, newMember('mem_1', 'ana@example.com')), 'mem_1');
    assert.equal(await repo.membership('mem_1', 'sol'), undefined);
    assert.deepEqual(await repo.memberships('mem_1'), []);
    assert.deepEqual(await repo.spaceMembers('sol'), []);
    assert.equal((await repo.invitation('i1'))?.ownerId, 'own_b');
  });

  test('a member’s sessions: found with their state, revoked all at once', async ({ repo, sessions, fixture }) => {
    await spaces(fixture);
    await repo.insertInvitation(invitation('i1', 'sol', 'ana@example.com', 'edita'));
    await repo.accept('i1', T0, newMember('mem_1', 'ana@example.com'));
    for (const id of ['s1', 's2'])
      await sessions.insert({
        id,
        ownerId: 'mem_1',
        secretDigest: Buffer.from(id),
        createdAt: T0,
        expiresAt: '2026-03-01T12:00:00.000Z',
        maxExpiresAt: '2026-03-08T00:00:00.000Z',
        userAgent: null,
        ip: '203.0.113.9',
        origin: 'clave',
      });
    const found = await sessions.findWithOwner('s1');
    assert.equal(found?.owner_id, 'mem_1');
    assert.equal(Number(found?.owner_read_only), 0);
    assert.equal(found?.owner_deleted_at, null);
    assert.equal((await sessions.active('mem_1', T0)).length, 2);
    assert.equal(await sessions.revokeOthers('mem_1', null, '2026-03-01T01:00:00.000Z'), 2);
    assert.equal((await sessions.active('mem_1', T0)).length, 0);
    assert.equal((await sessions.find('s2'))?.revoked_at, '2026-03-01T01:00:00.000Z');
  });

  test('a member’s own name and password: the password ends their other sessions at once, no one else’s', async ({
    repo,
    sessions,
    fixture,
  }) => {
    await spaces(fixture);
    await repo.insertInvitation(invitation('i1', 'sol', 'ana@example.com', 'edita'));
    await repo.insertInvitation(invitation('i2', 'sol', 'bea@example.com', 'edita'));
    await repo.accept('i1', T0, newMember('mem_1', 'ana@example.com'));
    await repo.accept('i2', T0, newMember('mem_2', 'bea@example.com'));
    const open = async (id: string, memberId: string) =>
      sessions.insert({
        id,
        ownerId: memberId,
        secretDigest: Buffer.from(id),
        createdAt: T0,
        expiresAt: '2026-03-01T12:00:00.000Z',
        maxExpiresAt: '2026-03-08T00:00:00.000Z',
        userAgent: null,
        ip: null,
        origin: 'clave',
      });
    for (const id of ['s1', 's2', 's3']) await open(id, 'mem_1');
    await open('s4', 'mem_2');
    await sessions.revoke('s3', 'mem_1', T0);

    assert.equal(await repo.setName('mem_1', 'Ana Pérez'), true);
    assert.equal(await repo.setName('mem_nadie', 'X'), false);
    assert.equal((await repo.byId('mem_1'))?.name, 'Ana Pérez');
    assert.equal((await repo.spaceMember('sol', 'mem_1'))?.name, 'Ana Pérez', 'the owner’s list shows the new name');
    assert.equal((await repo.byId('mem_2'))?.name, 'Nombre mem_2', 'no one else’s');

    const at = '2026-03-01T02:00:00.000Z';
    assert.equal(await repo.setPassword('mem_1', 'scrypt$nueva', at, 's1'), 1, 's2 only: s3 had ended already');
    assert.equal((await repo.byEmail('ana@example.com'))?.passwordDigest, 'scrypt$nueva');
    assert.equal((await sessions.find('s1'))?.revoked_at, null, 'the session making the change stays');
    assert.equal((await sessions.find('s2'))?.revoked_at, at);
    assert.equal((await sessions.find('s3'))?.revoked_at, T0, 'an ended session keeps when it ended');
    assert.equal((await sessions.find('s4'))?.revoked_at, null, 'another member’s session stays');
    assert.equal((await repo.byId('mem_2'))?.passwordDigest, 'scrypt$mem_2');
    assert.equal(await repo.setPassword('mem_1', 'scrypt$otra', at, null), 1, 'without one to keep: every one');
    assert.equal((await sessions.find('s1'))?.revoked_at, at);
    assert.equal(await repo.setPassword('mem_nadie', 'scrypt$x', at, null), null, 'nothing written for nobody');
  });
}
