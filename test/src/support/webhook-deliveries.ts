import assert from 'node:assert/strict';
import type { TestHost } from '@cerebro/sdk/testing';

/** A delivery as `GET …/entregas` shows it (the fields these tests read). */
export interface Entrega {
  id: string;
  estado: string;
  intentos: number;
  proximo_intento: string | null;
  ultimo_estado_http: number | null;
  ultimo_error: string | null;
  evento: { id: string };
  terminada: string | null;
  historial: { fecha: string; estado_http: number | null; error: string | null; ms: number; manual: boolean }[];
}

/** Reads a webhook's deliveries (newest first) until `until` holds; throws after `timeoutMs`. */
export async function deliveriesOf(
  h: TestHost,
  webhook: string,
  until: (d: Entrega[]) => boolean,
  timeoutMs = 15_000,
): Promise<Entrega[]> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await h.client.get(`/companies/${h.spaceId}/webhooks/${webhook}/entregas`);
    assert.equal(res.status, 200, res.text);
    if (until(res.body.entregas)) return res.body.entregas;
    if (Date.now() > end) throw new Error(`deliveries never reached the state: ${JSON.stringify(res.body.entregas)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
