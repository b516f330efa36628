import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost, type TestHost } from '@cerebro/sdk/testing';
import { filesForm, GUIDE_MD } from './support/rag.js';
import { deliveriesOf, type Entrega } from './support/webhook-deliveries.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * Loopback allowed, and retries about 2 s apart (±20 %): long enough for a redelivery by hand to land between two
 * automatic attempts, short enough to see the next one come.
 */
const SLOW_RETRIES = {
  CEREBRO_WEBHOOKS_PERMITIDOS: '127.0.0.1',
  CEREBRO_WEBHOOKS_RETRY_BASE_MS: '2000',
  CEREBRO_WEBHOOKS_RETRY_MAX_DELAY_MS: '2000',
  CEREBRO_WEBHOOKS_TIMEOUT_MS: '700',
  CEREBRO_WEBHOOKS_POLL_MS: '50',
};

/** The newest delivery of a webhook, once `until` holds for it. */
async function delivery(h: TestHost, webhook: string, until: (d: Entrega) => boolean): Promise<Entrega> {
  return (await deliveriesOf(h, webhook, (d) => d[0] !== undefined && until(d[0])))[0]!;
}

test('a redelivery by hand of a pending delivery is one extra attempt: a failure keeps its retry schedule', async (t) => {
  const r = new WebhookReceiver();
  const url = await r.listen();
  t.after(() => r.close());
  r.behaviour = () => ({ status: 500 });
  const h = await startTestHost(t, { env: SLOW_RETRIES });
  const base = `/companies/${h.spaceId}/webhooks`;
  const id = (await h.client.post(base, { json: { url, eventos: ['documento.listo'] } })).body.id as string;
  await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: filesForm({ 'guia.md': GUIDE_MD }) });
  const first = await delivery(h, id, (d) => d.intentos === 1);
  assert.equal(first.estado, 'pendiente');
  assert.ok(first.proximo_intento, 'the first retry is planned');

  const redo = await h.client.post(`${base}/${id}/entregas/${first.id}/reenviar`);
  assert.equal(redo.status, 202, redo.text);
  const manual = await delivery(h, id, (d) => d.intentos === 2);
  assert.deepEqual(
    [manual.estado, manual.proximo_intento, manual.terminada, manual.historial.map((a) => a.manual)],
    ['pendiente', first.proximo_intento, null, [false, true]],
    'the failed attempt by hand leaves the planned retry as it was',
  );
  const retried = await delivery(h, id, (d) => d.intentos === 3);
  assert.equal(retried.estado, 'pendiente', 'the planned retry came, and the schedule goes on');
  assert.equal(retried.historial.at(-1)!.manual, false);

  // Paused by the owner: its pending delivery waits, a redelivery by hand still goes (and fails), and switching the
  // endpoint on again resumes the schedule.
  await h.client.patch(`${base}/${id}`, { json: { activo: false } });
  const paused = await delivery(h, id, (d) => d.intentos === 3);
  const asked = await h.client.post(`${base}/${id}/entregas/${paused.id}/reenviar`);
  assert.equal(asked.status, 202, asked.text);
  const failedByHand = await delivery(h, id, (d) => d.intentos === 4);
  assert.equal(failedByHand.estado, 'pendiente');
  assert.equal(failedByHand.terminada, null);
  await new Promise((res) => setTimeout(res, 3000));
  assert.equal((await delivery(h, id, () => true)).intentos, 4, 'nothing automatic while it is off');
  r.behaviour = () => ({ status: 204 });
  await h.client.patch(`${base}/${id}`, { json: { activo: true } });
  const delivered = await delivery(h, id, (d) => d.estado === 'entregada');
  assert.equal(delivered.intentos, 5);
  assert.equal(delivered.historial.at(-1)!.manual, false, 'resumed by the schedule, not by hand');
});

test('a redelivery by hand of a failed delivery is one attempt: if it fails too, the delivery stays failed', async (t) => {
  const r = new WebhookReceiver();
  const url = await r.listen();
  t.after(() => r.close());
  r.behaviour = () => ({ status: 503 });
  const h = await startTestHost(t, {
    env: {
      ...SLOW_RETRIES,
      CEREBRO_WEBHOOKS_RETRY_BASE_MS: '100',
      CEREBRO_WEBHOOKS_RETRY_MAX_DELAY_MS: '100',
      CEREBRO_WEBHOOKS_RETRY_WINDOW_MS: '400',
    },
  });
  const base = `/companies/${h.spaceId}/webhooks`;
  const id = (await h.client.post(base, { json: { url, eventos: ['documento.listo'] } })).body.id as string;
  await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: filesForm({ 'guia.md': GUIDE_MD }) });
  const failed = await delivery(h, id, (d) => d.estado === 'fallida');
  const redo = await h.client.post(`${base}/${id}/entregas/${failed.id}/reenviar`);
  assert.equal(redo.status, 202, redo.text);
  const again = await delivery(h, id, (d) => d.intentos === failed.intentos + 1);
  assert.deepEqual([again.estado, again.proximo_intento], ['fallida', null]);
  assert.ok(again.terminada);
  assert.equal(again.historial.at(-1)!.manual, true);
  await new Promise((res) => setTimeout(res, 500));
  assert.equal((await delivery(h, id, () => true)).intentos, failed.intentos + 1, 'no retries after it');
});
