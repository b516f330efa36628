import assert from 'node:assert/strict';
import { contractCase } from './contract-case.js';
import {
  MANUAL,
  type AttemptOutcome,
  type DeliveryRow,
  type WebhookRepository,
  type WebhookRow,
} from './webhook-repository.js';

/** A webhook repository under test, a second handle on the same storage, and a way to make spaces. */
export interface WebhookFixture {
  repo: WebhookRepository;
  other: WebhookRepository;
  /** Creates a space billed to `accountId` (a new account when not given). */
  openSpace(accountId?: string): Promise<{ spaceId: string; accountId: string }>;
  close(): Promise<void>;
}

const AT = '2026-03-01T10:00:00.000Z';
let serial = 0;

function endpoint(spaceId: string, events: string[], extra: Partial<WebhookRow> = {}): WebhookRow {
  serial++;
  return {
    id: `whk_${serial}`,
    space_id: spaceId,
    url: `https://example.com/${serial}`,
    events: JSON.stringify(events),
    description: '',
    credit_threshold: 100,
    secret: `secreto-${serial}`,
    previous_secret: null,
    previous_secret_until: null,
    active: 1,
    disabled_at: null,
    disabled_reason: null,
    consecutive_failures: 0,
    created_at: AT,
    updated_at: AT,
    ...extra,
  };
}

function delivery(webhookId: string, nextAt: number, extra: Partial<DeliveryRow> = {}): DeliveryRow {
  serial++;
  return {
    id: `ent_${serial}`,
    webhook_id: webhookId,
    event_id: `evt_${serial}`,
    event_type: 'documento.listo',
    body: `{"id":"evt_${serial}"}`,
    state: 'pendiente',
    attempts: 0,
    next_attempt_at: nextAt,
    give_up_at: nextAt + 86_400_000,
    manual_requested: 0,
    last_status: null,
    last_error: null,
    created_at: AT,
    finished_at: null,
    ...extra,
  };
}

const failedAttempt = (state: DeliveryRow['state'], nextAttemptAt: number | null): AttemptOutcome => ({
  attempt: { at: AT, status: 500, error: 'HTTP 500', ms: 12, manual: 0 },
  state,
  nextAttemptAt,
  finishedAt: state === 'pendiente' ? null : AT,
  succeeded: false,
});

/** The behaviour every webhook repository must have, whatever its database. */
export function webhookRepositoryContract(name: string, make: () => Promise<WebhookFixture>): void {
  const withRepo = contractCase(name, make);

  withRepo('endpoints are stored, listed per space, changed, rotated and deleted', async ({ repo, openSpace }) => {
    const { spaceId } = await openSpace();
    const other = await openSpace();
    const a = endpoint(spaceId, ['documento.listo']);
    await repo.insertEndpoint(a);
    await repo.insertEndpoint(endpoint(other.spaceId, ['documento.listo']));
    assert.deepEqual(await repo.endpoint(spaceId, a.id), a);
    assert.equal(await repo.endpoint(other.spaceId, a.id), null, "another space's id is not found");
    assert.equal(await repo.countEndpoints(spaceId), 1);
    await repo.updateEndpoint(a.id, { url: 'https://example.com/nueva', credit_threshold: 5, updated_at: 'luego' });
    await repo.rotateSecret(a.id, 'nuevo', 123, 'luego');
    const changed = (await repo.listEndpoints(spaceId))[0]!;
    assert.deepEqual(
      [changed.url, changed.credit_threshold, changed.secret, changed.previous_secret, changed.previous_secret_until],
      ['https://example.com/nueva', 5, 'nuevo', a.secret, 123],
    );
    await repo.disable(a.id, 'luego', 'Motivo.');
    let row = (await repo.endpoint(spaceId, a.id))!;
    assert.deepEqual([row.active, row.disabled_reason], [0, 'Motivo.']);
    await repo.enable(a.id, 'después');
    row = (await repo.endpoint(spaceId, a.id))!;
    assert.deepEqual([row.active, row.disabled_reason, row.consecutive_failures], [1, null, 0]);
    assert.equal(await repo.deleteEndpoint(other.spaceId, a.id), false, 'not from another space');
    assert.equal(await repo.deleteEndpoint(spaceId, a.id), true);
    assert.equal(await repo.countEndpoints(spaceId), 0);
  });

  withRepo('subscribers are the active endpoints of an event, per space or per account', async (f) => {
    const first = await f.openSpace();
    const second = await f.openSpace(first.accountId);
    const stranger = await f.openSpace();
    const ready = endpoint(first.spaceId, ['documento.listo', 'creditos.bajos']);
    const off = endpoint(first.spaceId, ['creditos.bajos'], { active: 0 });
    const sibling = endpoint(second.spaceId, ['creditos.bajos']);
    const foreign = endpoint(stranger.spaceId, ['creditos.bajos']);
    for (const w of [ready, off, sibling, foreign]) await f.repo.insertEndpoint(w);
    assert.deepEqual(
      (await f.repo.subscribers(first.spaceId, 'documento.listo')).map((w) => w.id),
      [ready.id],
    );
    assert.deepEqual(await f.repo.subscribers(first.spaceId, 'documento.fallido'), []);
    assert.deepEqual(
      (await f.repo.accountSubscribers(first.accountId, 'creditos.bajos')).map((w) => w.id).sort(),
      [ready.id, sibling.id].sort(),
    );
  });

  withRepo('a due delivery is claimed by one handle at a time, and again when its lease ends', async (f) => {
    const { spaceId } = await f.openSpace();
    const w = endpoint(spaceId, ['documento.listo']);
    await f.repo.insertEndpoint(w);
    const due = delivery(w.id, 1_000);
    const later = delivery(w.id, 50_000);
    await f.repo.insertDeliveries([due, later]);
    assert.equal(await f.repo.nextDue(), 1_000);
    const [mine, theirs] = await Promise.all([f.repo.claimDue(2_000, 10_000, 10), f.other.claimDue(2_000, 10_000, 10)]);
    assert.deepEqual(
      [...mine!, ...theirs!].map((d) => d.id),
      [due.id],
      'claimed once between the two',
    );
    const claimed = [...mine!, ...theirs!][0]!;
    assert.deepEqual([claimed.url, claimed.secret], [w.url, w.secret], 'with what sending it needs');
    assert.deepEqual(await f.repo.claimDue(5_000, 10_000, 10), [], 'leased');
    assert.deepEqual(
      (await f.other.claimDue(12_001, 10_000, 10)).map((d) => d.id),
      [due.id],
      'the lease ran out: another process takes it',
    );
  });

  withRepo("an account's exhaustion notice is stored once, whichever handles race to tell it", async (f) => {
    const { spaceId, accountId } = await f.openSpace();
    const w = endpoint(spaceId, ['creditos.agotados']);
    await f.repo.insertEndpoint(w);
    const notice = () => [delivery(w.id, 1_000, { event_type: 'creditos.agotados' })];
    // Both handles read first: connections are open, so the six decisions below really overlap.
    assert.equal(await f.repo.exhaustionToldSinceTopUp(accountId), false);
    assert.equal(await f.other.exhaustionToldSinceTopUp(accountId), false);
    const told = await Promise.all(
      [f.repo, f.other, f.repo, f.other, f.repo, f.other].map((r) => r.insertExhaustionNotice(accountId, notice())),
    );
    assert.equal(told.filter(Boolean).length, 1, 'one of the six stores it; the others see it told');
    assert.equal((await f.repo.deliveries(w.id, { limit: 10, offset: 0 })).total, 1);
    assert.equal(await f.other.exhaustionToldSinceTopUp(accountId), true);
    const stranger = await f.openSpace();
    assert.equal(await f.repo.exhaustionToldSinceTopUp(stranger.accountId), false, 'per account');
  });

  withRepo('an attempt is recorded with its outcome and the failure streak', async (f) => {
    const { spaceId } = await f.openSpace();
    const w = endpoint(spaceId, ['documento.listo']);
    await f.repo.insertEndpoint(w);
    const d = delivery(w.id, 1_000);
    await f.repo.insertDeliveries([d]);
    const [claimed] = await f.repo.claimDue(1_000, 10_000, 1);
    assert.deepEqual(await f.repo.recordAttempt(claimed!, failedAttempt('pendiente', 3_000)), { failures: 1 });
    const [again] = await f.repo.claimDue(3_000, 10_000, 1);
    assert.ok(again, 'the retry is due at its time, its lease released by the attempt');
    assert.deepEqual(await f.repo.recordAttempt(again!, failedAttempt('fallida', null)), { failures: 2 });
    const stored = (await f.repo.delivery(w.id, d.id))!;
    assert.deepEqual([stored.state, stored.attempts, stored.last_status, stored.finished_at], ['fallida', 2, 500, AT]);
    assert.deepEqual(
      (await f.repo.attempts([d.id])).map((a) => [a.n, a.status]),
      [
        [1, 500],
        [2, 500],
      ],
    );
    await f.repo.insertDeliveries([delivery(w.id, 4_000)]);
    const [next] = await f.repo.claimDue(4_000, 10_000, 1);
    const ok: AttemptOutcome = {
      attempt: { at: AT, status: 200, error: null, ms: 3, manual: 0 },
      state: 'entregada',
      nextAttemptAt: null,
      finishedAt: AT,
      succeeded: true,
    };
    assert.deepEqual(await f.repo.recordAttempt(next!, ok), { failures: 0 }, 'a success ends the streak');
  });

  withRepo('deliveries page newest first with a state filter; a redelivery is due even when disabled', async (f) => {
    const { spaceId } = await f.openSpace();
    const w = endpoint(spaceId, ['documento.listo']);
    await f.repo.insertEndpoint(w);
    const old = delivery(w.id, 1, { state: 'entregada', created_at: '2026-01-01T00:00:00.000Z' });
    const recent = delivery(w.id, 1, { state: 'fallida', created_at: '2026-02-01T00:00:00.000Z' });
    await f.repo.insertDeliveries([old, recent]);
    const page = await f.repo.deliveries(w.id, { limit: 1, offset: 0 });
    assert.deepEqual([page.total, page.rows.map((r) => r.id)], [2, [recent.id]]);
    const delivered = await f.repo.deliveries(w.id, { limit: 10, offset: 0, state: 'entregada' });
    assert.deepEqual([delivered.total, delivered.rows.map((r) => r.id)], [1, [old.id]]);
    await f.repo.disable(w.id, AT, 'Apagado.');
    assert.equal(await f.repo.nextDue(), null);
    await f.repo.requestRedelivery(old.id, 7_000);
    assert.equal(await f.repo.nextDue(), 0, 'due at once');
    assert.deepEqual(
      (await f.repo.claimDue(7_000, 1_000, 5)).map((d) => [d.id, d.manual_requested, d.next_attempt_at]),
      [[old.id, MANUAL.once, 7_000]],
    );
  });

  withRepo('a pending delivery redelivered by hand keeps its planned attempt and is claimed at once', async (f) => {
    const { spaceId } = await f.openSpace();
    const w = endpoint(spaceId, ['documento.listo']);
    await f.repo.insertEndpoint(w);
    const planned = delivery(w.id, 90_000, { attempts: 1 });
    await f.repo.insertDeliveries([planned]);
    assert.deepEqual(await f.repo.claimDue(5_000, 1_000, 5), [], 'not due yet');
    await f.repo.requestRedelivery(planned.id, 5_000);
    await f.repo.requestRedelivery(planned.id, 5_100);
    assert.equal(await f.repo.nextDue(), 0);
    const [claimed] = await f.repo.claimDue(5_100, 10_000, 5);
    assert.deepEqual(
      [claimed?.id, claimed?.manual_requested, claimed?.next_attempt_at, claimed?.state],
      [planned.id, MANUAL.extra, 90_000, 'pendiente'],
    );
    assert.equal(await f.repo.nextDue(), 15_100, 'leased: not due before its lease ends');
  });

  withRepo('finished deliveries older than a date are pruned; pending ones stay', async (f) => {
    const { spaceId } = await f.openSpace();
    const w = endpoint(spaceId, ['documento.listo']);
    await f.repo.insertEndpoint(w);
    const old = '2026-01-01T00:00:00.000Z';
    await f.repo.insertDeliveries([
      delivery(w.id, 1, { state: 'entregada', created_at: old }),
      delivery(w.id, 1, { state: 'fallida', created_at: old }),
      delivery(w.id, 1, { created_at: old }),
      delivery(w.id, 1, { state: 'entregada' }),
    ]);
    assert.equal(await f.repo.pruneFinished('2026-02-01T00:00:00.000Z'), 2);
    assert.equal((await f.repo.deliveries(w.id, { limit: 10, offset: 0 })).total, 2);
  });
}
