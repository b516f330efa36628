// Questions the catalog does not cover are answered from the space's uploaded documents (the Cerebro).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestClient } from '@cerebro/sdk/testing';
import { startShop } from './test-support.js';
import { stripCitations } from './sources/knowledge.js';

const POLICIES_MD = `# Medios de pago

Aceptamos pagos con tarjeta de crédito, transferencia bancaria y pago contra entrega en Bogotá.

# Devoluciones

Las devoluciones se aceptan dentro de los treinta días siguientes a la compra, con la factura y el producto sin uso.

# Horario

La tienda física atiende de lunes a sábado, de nueve de la mañana a siete de la noche.
`;

async function upload(client: TestClient, space: string, files: Record<string, string>): Promise<void> {
  const form = new FormData();
  for (const [name, content] of Object.entries(files)) form.append('archivos', new Blob([content]), name);
  const res = await client.post(`/rag/${space}/load_documents`, { body: form });
  assert.equal(res.status, 202);
  // Indexing runs in worker threads: poll its status (bounded), as a client would.
  const until = Date.now() + 20_000;
  for (;;) {
    const status = (await client.get(`/rag/${space}/indexing_status`)).body;
    if (status.listo) return;
    if (Date.now() > until) throw new Error(`indexing not finished: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('other questions are answered from the uploaded documents, without citation markers', async (t) => {
  const { h, chat } = await startShop(t, { leadsConfig: { marca_activa: false } });
  await upload(h.client, h.spaceId, { 'politicas.md': POLICIES_MD });
  const c = chat();
  const pay = await c.say('¿Qué medios de pago aceptan?');
  assert.equal(pay.tipo, 'conocimiento');
  assert.match(pay.respuesta, /tarjeta de crédito, transferencia bancaria y pago contra entrega/);
  assert.doesNotMatch(pay.respuesta, /\[\d+\]/);
  const returns = await c.say('¿Cuándo se aceptan devoluciones?');
  assert.match(returns.respuesta, /treinta días/);
  assert.equal(returns.estado, 'activa');
});

test('a question the documents do not cover: the agent says so, and hands off after derivar_tras_fallos', async (t) => {
  const { h, chat } = await startShop(t, { leadsConfig: { marca_activa: false, derivar_tras_fallos: 2 } });
  await upload(h.client, h.spaceId, { 'politicas.md': POLICIES_MD });
  const c = chat();
  const first = await c.say('¿Cuál es la capital de Mongolia?');
  assert.deepEqual(
    [first.tipo, first.respuesta],
    ['aclaracion', 'No tengo esa información. ¿Te ayudo con algún producto del catálogo?'],
  );
  const second = await c.say('¿Quién ganó el mundial de ajedrez?');
  assert.deepEqual([second.tipo, second.estado, second.motivo_derivacion], ['derivacion', 'derivada', 'sin_respuesta']);
});

test('stripCitations removes [n] markers and the space before them', () => {
  assert.equal(stripCitations('Aceptamos tarjeta [1] y transferencia [2, 3].'), 'Aceptamos tarjeta y transferencia.');
  assert.equal(stripCitations('Sin marcas.'), 'Sin marcas.');
});
