import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startHost, type RunningHost } from '@cerebro/host';
import { definePlugin, HostServices, type WebhookEventType } from '@cerebro/sdk';
import { startTestHost, TestClient, type TestHost } from '@cerebro/sdk/testing';
import { filesForm, GUIDE_MD, waitIndexed } from './support/rag.js';
import { deliveriesOf, type Entrega } from './support/webhook-deliveries.js';
import { verifySignature, WebhookReceiver } from './support/webhook-receiver.js';
import { echoPlugin } from './support/plugins.js';

/** Fast retries, and loopback allowed by the operator (the guard refuses it otherwise). */
const FAST = {
  CEREBRO_WEBHOOKS_PERMITIDOS: '127.0.0.1',
  CEREBRO_WEBHOOKS_RETRY_BASE_MS: '150',
  CEREBRO_WEBHOOKS_RETRY_MAX_DELAY_MS: '300',
  CEREBRO_WEBHOOKS_TIMEOUT_MS: '700',
  CEREBRO_WEBHOOKS_POLL_MS: '50',
};

async function receiver(t: { after(fn: () => unknown): void }): Promise<[WebhookReceiver, string]> {
  const r = new WebhookReceiver();
  const url = await r.listen();
  t.after(() => r.close());
  return [r, url];
}

const upload = (h: TestHost, name: string, content: string) =>
  h.client.post(`/rag/${h.spaceId}/load_documents`, { body: filesForm({ [name]: content }) });

test('the address guard of fuentes: loopback, private and metadata addresses are refused unless the operator allows them', async (t) => {
  const h = await startTestHost(t);
  const create = (url: string) =>
    h.client.post(`/companies/${h.spaceId}/webhooks`, { json: { url, eventos: ['documento.listo'] } });
  for (const url of [
    'http://127.0.0.1:9/hook',
    'http://10.0.0.5/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'ftp://ejemplo.com/',
    'https://usuario:clave@ejemplo.com/',
  ]) {
    const res = await create(url);
    assert.equal(res.status, 422, `${url}: ${res.text}`);
    assert.deepEqual(res.body.detail[0].loc, ['body', 'url']);
  }
  // A name is checked when connecting: one resolving to loopback never gets a delivery (the attempt records why).
  const named = await create('http://localhost:9/hook');
  assert.equal(named.status, 201);
  await upload(h, 'a.md', '# A\n\nTexto.');
  const [d] = await deliveriesOf(h, named.body.id, (d) => d.length === 1 && d[0].intentos >= 1);
  assert.equal(d.ultimo_estado_http, null);
  assert.match(String(d.ultimo_error), /bucle local/);
  // Unknown events and fields are refused.
  const bad = await h.client.post(`/companies/${h.spaceId}/webhooks`, {
    json: { url: 'https://ejemplo.com/hook', eventos: ['documento.borrado'], otro: 1 },
  });
  assert.equal(bad.status, 422);
});

test('a signed event reaches a real receiver once; the secret shows only at creation; a read key cannot manage', async (t) => {
  const [r, url] = await receiver(t);
  const h = await startTestHost(t, { env: FAST });
  const base = `/companies/${h.spaceId}/webhooks`;
  assert.equal(
    (await h.client.post(base, { key: h.readKey, json: { url, eventos: ['documento.listo'] } })).status,
    403,
  );
  const created = await h.client.post(base, {
    json: { url, eventos: ['documento.listo', 'documento.fallido'], descripcion: 'CRM' },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('cache-control'), 'no-store');
  const secret: string = created.body.secreto;
  assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
  const id = created.body.id;
  const listed = await h.client.get(base, { key: h.readKey });
  assert.equal(listed.body.webhooks.length, 1);
  assert.ok(!JSON.stringify(listed.body).includes(secret), 'the list never shows the secret');
  assert.ok(!('secreto' in (await h.client.get(`${base}/${id}`)).body));

  await upload(h, 'guia.md', GUIDE_MD);
  await upload(h, 'roto.pdf', 'esto no es un PDF');
  await waitIndexed(h.client, h.spaceId);
  const got = await r.waitFor(2);
  const byType = Object.fromEntries(got.map((g) => [g.json.tipo, g]));
  const ready = byType['documento.listo']!;
  assert.ok(verifySignature(ready.headers['cerebro-firma'] as string, ready.body, secret), 'signature verifies');
  assert.ok(!verifySignature(ready.headers['cerebro-firma'] as string, ready.body, 'whsec_otro'));
  assert.match(ready.headers['cerebro-firma'] as string, /^t=\d+,v1=[0-9a-f]{64}$/);
  assert.equal(ready.headers['content-type'], 'application/json');
  assert.equal(ready.headers['cerebro-evento-id'], ready.json.id);
  assert.deepEqual(Object.keys(ready.json), ['id', 'tipo', 'creado', 'espacio', 'datos']);
  assert.match(ready.json.id, /^evt_/);
  assert.equal(ready.json.espacio, h.spaceId);
  assert.equal(ready.json.datos.documento.nombre, 'guia.md');
  assert.ok(ready.json.datos.documento.pasajes > 0);
  const failed = byType['documento.fallido']!;
  assert.equal(failed.json.datos.documento.nombre, 'roto.pdf');
  assert.ok(failed.json.datos.documento.error?.codigo);

  const entregas = await deliveriesOf(h, id, (d) => d.length === 2 && d.every((x) => x.estado === 'entregada'));
  assert.deepEqual(
    entregas.map((e) => [e.intentos, e.historial.length, e.historial[0].estado_http]),
    [
      [1, 1, 200],
      [1, 1, 200],
    ],
  );
  assert.ok(entregas.some((e) => e.evento.id === ready.json.id));
  await new Promise((res) => setTimeout(res, 300));
  assert.equal(r.received.length, 2, 'a delivered event is not sent again');

  // Not subscribed, not sent; paused, not sent.
  await h.client.patch(`${base}/${id}`, { json: { eventos: ['documento.fallido'] } });
  await upload(h, 'otra.md', '# Otra\n\nMás texto.');
  await waitIndexed(h.client, h.spaceId);
  await new Promise((res) => setTimeout(res, 300));
  assert.equal(r.received.length, 2);

  const removed = await h.client.delete(`${base}/${id}`);
  assert.deepEqual(removed.body, { eliminado: id });
  assert.equal((await h.client.get(`${base}/${id}`)).status, 404);
});

test('a receiver that answers 500, one that is slow and one that is down: retried with backoff, same event id, every attempt recorded', async (t) => {
  const [r, url] = await receiver(t);
  r.behaviour = (n) => (n < 2 ? { status: 500 } : n === 2 ? { status: 200, delayMs: 1500 } : { status: 204 });
  const h = await startTestHost(t, { env: FAST });
  const base = `/companies/${h.spaceId}/webhooks`;
  const created = await h.client.post(base, { json: { url, eventos: ['documento.listo'] } });
  await upload(h, 'guia.md', GUIDE_MD);
  const got = await r.waitFor(4);
  assert.equal(new Set(got.map((g) => g.json.id)).size, 1, 'every retry carries the same event id');
  assert.equal(new Set(got.map((g) => g.body)).size, 1, 'and the same body');
  for (const g of got) assert.ok(verifySignature(g.headers['cerebro-firma'] as string, g.body, created.body.secreto));
  const [d] = await deliveriesOf(h, created.body.id, (d) => d[0]?.estado === 'entregada');
  assert.deepEqual(
    d.historial.map((a) => a.estado_http),
    [500, 500, null, 204],
  );
  assert.match(String(d.historial[0]!.error), /500/);
  assert.match(String(d.historial[2]!.error), /Sin respuesta/);
  assert.ok(d.historial[2].ms >= 600);
  // The waits grow: the gap before the second retry is longer than before the first (150 ms, then 300 ms, ±20 %).
  const at = d.historial.map((a) => Date.parse(a.fecha));
  assert.ok(at[1] - at[0] >= 100, `first retry after ${at[1] - at[0]} ms`);
  assert.ok(at[2] - at[1] >= 200, `second retry after ${at[2] - at[1]} ms`);
  assert.equal((await h.client.get(`${base}/${created.body.id}`)).body.fallos_seguidos, 0);

  // Down: nothing listens; the attempts fail with a refused connection and stay pending for the next retry.
  const port = r.port;
  await r.close();
  await upload(h, 'dos.md', '# Dos\n\nTexto.');
  const [down] = await deliveriesOf(h, created.body.id, (d) => d.length === 2 && d[0].intentos >= 2);
  assert.equal(down.estado, 'pendiente');
  assert.match(String(down.ultimo_error), /Conexión rechazada/);
  assert.ok(down.proximo_intento);
  // Back up on the same port: the pending delivery arrives.
  const back = new WebhookReceiver();
  await back.listen(port);
  t.after(() => back.close());
  const [again] = await back.waitFor(1);
  assert.equal(again!.json.id, down.evento.id);
  await deliveriesOf(h, created.body.id, (d) => d[0].estado === 'entregada');
});

test('an endpoint failing for a whole retry window is disabled with a notice; redelivery by hand and re-enabling', async (t) => {
  const [r, url] = await receiver(t);
  r.behaviour = () => ({ status: 503 });
  const h = await startTestHost(t, { env: { ...FAST, CEREBRO_WEBHOOKS_RETRY_WINDOW_MS: '1200' } });
  const base = `/companies/${h.spaceId}/webhooks`;
  const created = await h.client.post(base, { json: { url, eventos: ['documento.listo'] } });
  const id = created.body.id;
  await upload(h, 'guia.md', GUIDE_MD);
  const [d] = await deliveriesOf(h, id, (d) => d[0]?.estado === 'fallida');
  assert.ok(d.intentos >= 3, `${d.intentos} attempts`);
  assert.equal(d.proximo_intento, null);
  const disabled = (await h.client.get(`${base}/${id}`)).body;
  assert.equal(disabled.activo, false);
  assert.match(disabled.desactivado.motivo, /Desactivado automáticamente/);
  assert.ok(disabled.fallos_seguidos >= 3);
  // Disabled: new events are not stored for it.
  await upload(h, 'dos.md', '# Dos\n\nTexto.');
  await waitIndexed(h.client, h.spaceId);
  assert.equal((await h.client.get(`${base}/${id}/entregas`)).body.total, 1);

  // The owner fixes the receiver and redelivers by hand: one attempt, marked manual, same event.
  r.behaviour = () => ({ status: 200 });
  const before = r.received.length;
  const redo = await h.client.post(`${base}/${id}/entregas/${d.id}/reenviar`);
  assert.equal(redo.status, 202, redo.text);
  await r.waitFor(before + 1);
  assert.equal(r.received.at(-1)!.json.id, d.evento.id);
  const [done] = await deliveriesOf(h, id, (x) => x[0].estado === 'entregada');
  assert.equal(done.historial.at(-1)?.manual, true);
  assert.equal((await h.client.get(`${base}/${id}/entregas?estado=fallida`)).body.total, 0);
  assert.equal(
    (await h.client.post(`${base}/${id}/entregas/ent_nada/reenviar`)).status,
    404,
    'an unknown delivery is 404',
  );

  const enabled = await h.client.patch(`${base}/${id}`, { json: { activo: true } });
  assert.deepEqual([enabled.body.activo, enabled.body.desactivado, enabled.body.fallos_seguidos], [true, null, 0]);
  await upload(h, 'tres.md', '# Tres\n\nTexto.');
  await r.waitFor(before + 2);
});

test('rotating the secret: the new one signs at once, the old one keeps verifying for a day', async (t) => {
  const [r, url] = await receiver(t);
  const h = await startTestHost(t, { env: FAST });
  const base = `/companies/${h.spaceId}/webhooks`;
  const created = await h.client.post(base, { json: { url, eventos: ['documento.listo'] } });
  const rotated = await h.client.post(`${base}/${created.body.id}/secreto`);
  assert.equal(rotated.status, 200, rotated.text);
  assert.equal(rotated.headers.get('cache-control'), 'no-store');
  assert.notEqual(rotated.body.secreto, created.body.secreto);
  assert.ok(Date.parse(rotated.body.anterior_valido_hasta) > Date.now() + 23 * 3600_000);
  await upload(h, 'guia.md', GUIDE_MD);
  const [got] = await r.waitFor(1);
  const header = got!.headers['cerebro-firma'] as string;
  assert.match(header, /^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
  assert.ok(verifySignature(header, got!.body, rotated.body.secreto));
  assert.ok(verifySignature(header, got!.body, created.body.secreto));
  assert.equal((await h.client.post(`${base}/whk_ajeno/secreto`)).status, 404);
});

test('credits below the threshold and exhausted reach the subscribed endpoints once per crossing', async (t) => {
  const [r, url] = await receiver(t);
  const h = await startTestHost(t, { env: FAST, credits: 4 });
  await h.client.post(`/companies/${h.spaceId}/webhooks`, {
    json: { url, eventos: ['creditos.bajos', 'creditos.agotados'], umbral_creditos: 3 },
  });
  for (const q of ['¿Uno?', '¿Dos?', '¿Tres?', '¿Cuatro?'])
    assert.equal((await h.client.post(`/rag/${h.spaceId}/conversations`, { json: { pregunta: q } })).status, 200);
  assert.equal((await h.client.post(`/rag/${h.spaceId}/conversations`, { json: { pregunta: '¿Cinco?' } })).status, 402);
  const got = await r.waitFor(2);
  await new Promise((res) => setTimeout(res, 300));
  assert.deepEqual(r.received.map((g) => [g.json.tipo, g.json.datos.saldo]).sort(), [
    ['creditos.agotados', 0],
    ['creditos.bajos', 2],
  ]);
  assert.equal(got.find((g) => g.json.tipo === 'creditos.bajos')!.json.datos.umbral, 3);
});

test('a request refused for lack of credits tells creditos.agotados once per exhaustion, also with a balance left', async (t) => {
  const [r, url] = await receiver(t);
  // A paid route costing 3 credits: a balance of 1 or 2 cannot pay it, without ever reaching zero.
  const priced = echoPlugin(
    { routes: [{ id: 'escribir', method: 'POST', path: '/eco', permission: 'escribe', summary: 'Eco', credits: 3 }] },
    { escribir: () => ({ ok: true }) },
  );
  const h = await startTestHost(t, { env: FAST, credits: 4, plugins: [priced] });
  await h.client.post(`/companies/${h.spaceId}/webhooks`, { json: { url, eventos: ['creditos.agotados'] } });
  const pay = () => h.client.post(`/mod/eco/${h.spaceId}/eco`, { json: {} });
  assert.equal((await pay()).status, 200); // 4 → 1
  assert.equal((await pay()).status, 402); // 1 cannot pay 3: exhausted
  assert.equal((await pay()).status, 402); // still exhausted: not told again
  const [first] = await r.waitFor(1);
  assert.deepEqual([first!.json.tipo, first!.json.datos.saldo], ['creditos.agotados', 1]);
  // Topped up, spent down again: a new exhaustion is told again.
  await h.admin.addCredits(h.accountId, 8); // 9
  for (let i = 0; i < 3; i++) assert.equal((await pay()).status, 200); // 9 → 0: the debit reaching zero tells it
  assert.equal((await pay()).status, 402); // already told since the top-up
  const [, second] = await r.waitFor(2);
  assert.deepEqual([second!.json.tipo, second!.json.datos.saldo], ['creditos.agotados', 0]);
  await new Promise((res) => setTimeout(res, 400));
  assert.equal(r.received.length, 2, 'once per exhaustion');
});

test('deliveries are stored: an event whose receiver was down is sent after the service restarts', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-webhooks-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const r = new WebhookReceiver();
  const url = await r.listen();
  const port = r.port;
  await r.close(); // down while the event happens
  const start = () =>
    startHost({
      env: { ...process.env, ...FAST, CEREBRO_WEBHOOKS_RETRY_BASE_MS: '2000' },
      config: { dataDir, port: 0, host: '127.0.0.1', logLevel: 'silent', discoverPlugins: false, bootstrapDemo: false },
    });
  let host: RunningHost = await start();
  const owner = await host.admin.createOwner({ name: 'P' });
  await host.admin.createSpace({ id: 'uno', ownerId: owner.id, modules: ['api'] });
  const key = await host.admin.issueKey(owner.id, 'k', [], 'escribe');
  let client = new TestClient(`${host.url}/api`, key.token);
  const created = await client.post('/companies/uno/webhooks', { json: { url, eventos: ['documento.listo'] } });
  await client.post('/rag/uno/load_documents', { body: filesForm({ 'guia.md': GUIDE_MD }) });
  await waitIndexed(client, 'uno');
  for (
    let i = 0;
    (await client.get(`/companies/uno/webhooks/${created.body.id}/entregas`)).body.entregas[0]?.intentos !== 1;
    i++
  ) {
    assert.ok(i < 200);
    await new Promise((res) => setTimeout(res, 50));
  }
  await host.close();

  // The retry is due about 2 s after the failed attempt: the restarted service finds it stored and sends it.
  const back = new WebhookReceiver();
  await back.listen(port);
  t.after(() => back.close());
  host = await start();
  t.after(() => host.close());
  client = new TestClient(`${host.url}/api`, key.token);
  const [pending] = (await client.get(`/companies/uno/webhooks/${created.body.id}/entregas`)).body.entregas;
  assert.equal(pending.estado, 'pendiente');
  assert.equal(pending.intentos, 1);
  const [got] = await back.waitFor(1);
  assert.equal(got!.json.id, pending.evento.id);
  let done: Entrega;
  for (
    let i = 0;
    (done = (await client.get(`/companies/uno/webhooks/${created.body.id}/entregas`)).body.entregas[0]).estado !==
    'entregada';
    i++
  ) {
    assert.ok(i < 200);
    await new Promise((res) => setTimeout(res, 50));
  }
  assert.deepEqual(
    done.historial.map((a) => [a.estado_http, a.manual]),
    [
      [null, false],
      [200, false],
    ],
  );
  assert.ok(verifySignature(got!.headers['cerebro-firma'] as string, got!.body, created.body.secreto));
});

test('modules publish their own events through HostServices.Events: ventas, fuentes and landing', async (t) => {
  const [r, url] = await receiver(t);
  const h = await startTestHost(t, {
    discover: true,
    env: { ...FAST, CEREBRO_FUENTES_PERMITIDOS: '127.0.0.1' },
  });
  const all = [
    'ventas.conversacion_derivada',
    'ventas.respuesta_persona',
    'fuente.ejecucion_terminada',
    'ficha.lista',
    'ficha.fallida',
    'landing.version_lista',
    'landing.version_fallida',
  ];
  const created = await h.client.post(`/companies/${h.spaceId}/webhooks`, { json: { url, eventos: all } });
  assert.equal(created.status, 201, created.text);
  const types = () => r.received.map((g) => g.json.tipo);
  const until = async (tipo: string) => {
    for (let i = 0; !types().includes(tipo); i++) {
      assert.ok(i < 300, `no ${tipo} among ${types().join(', ')}`);
      await new Promise((res) => setTimeout(res, 50));
    }
    return r.received.find((g) => g.json.tipo === tipo)!;
  };

  // ventas: handed to a person, then the person's reply.
  const ventas = `/mod/ventas/${h.spaceId}`;
  const first = await h.client.post(`${ventas}/conversaciones`, { json: { mensaje: 'hola' } });
  const conv = first.body.conversacion;
  await h.client.post(`${ventas}/conversaciones`, {
    json: { mensaje: 'me pasas con un asesor humano por favor', conversacion: conv },
  });
  const handed = await until('ventas.conversacion_derivada');
  assert.deepEqual([handed.json.datos.conversacion, handed.json.datos.estado], [conv, 'derivada']);
  await h.client.post(`${ventas}/conversaciones/${conv}/mensajes`, { json: { texto: 'Soy Marta, ¿te ayudo?' } });
  const reply = await until('ventas.respuesta_persona');
  assert.deepEqual([reply.json.datos.rol, reply.json.datos.texto], ['persona', 'Soy Marta, ¿te ayudo?']);

  // fuentes: a run that cannot connect ends, and says so; a ficha ends too.
  const fuentes = `/mod/fuentes/${h.spaceId}`;
  const source = await h.client.post(`${fuentes}/fuentes`, { json: { tipo: 'url', url: 'http://127.0.0.1:9/' } });
  assert.equal((await h.client.post(`${fuentes}/fuentes/${source.body.id}/lanzar`)).status, 202);
  const run = await until('fuente.ejecucion_terminada');
  assert.equal(run.json.datos.fuente, source.body.id);
  assert.ok(['completada', 'fallida'].includes(run.json.datos.ejecucion.estado));
  await upload(h, 'guia.md', GUIDE_MD);
  await waitIndexed(h.client, h.spaceId);
  const ficha = await h.client.post(`${fuentes}/fichas`, { json: { tema: 'Actualizar Debian', campos: ['orden'] } });
  assert.equal(ficha.status, 202, ficha.text);
  for (let i = 0; !types().some((x) => x.startsWith('ficha.')); i++) {
    assert.ok(i < 300, 'no ficha event');
    await new Promise((res) => setTimeout(res, 50));
  }
  const fichaEvent = r.received.find((g) => g.json.tipo.startsWith('ficha.'))!;
  assert.equal(fichaEvent.json.datos.ficha.id, ficha.body.id);

  // landing: a version built from the catalog.
  await h.client.put(`${ventas}/productos/lampara`, {
    json: {
      nombre: 'Lámpara',
      descripcion: 'Lámpara de mesa',
      precio: 1000,
      moneda: 'COP',
      stock: 5,
      envio: { Bogotá: 100 },
    },
  });
  const landing = await h.client.post(`/mod/landing/${h.spaceId}/landings`, {
    json: {
      objetivo: 'Vender la lámpara',
      productos: ['lampara'],
      cta: { texto: 'Comprar', url: 'https://tienda.example/l' },
    },
  });
  assert.equal(landing.status, 202, landing.text);
  for (let i = 0; !types().some((x) => x.startsWith('landing.')); i++) {
    assert.ok(i < 300, 'no landing event');
    await new Promise((res) => setTimeout(res, 50));
  }
  const built = r.received.find((g) => g.json.tipo.startsWith('landing.'))!;
  assert.equal(built.json.datos.landing, landing.body.id);
  for (const g of r.received)
    assert.ok(verifySignature(g.headers['cerebro-firma'] as string, g.body, created.body.secreto));
});

test('finished deliveries are kept 30 days, then deleted', async (t) => {
  const [r, url] = await receiver(t);
  let now = Date.parse('2026-01-01T00:00:00Z');
  const h = await startTestHost(t, { env: FAST, clock: { now: () => now } });
  const base = `/companies/${h.spaceId}/webhooks`;
  const created = await h.client.post(base, { json: { url, eventos: ['documento.listo'] } });
  await upload(h, 'guia.md', GUIDE_MD);
  await r.waitFor(1);
  await deliveriesOf(h, created.body.id, (d) => d[0]?.estado === 'entregada');
  now += 29 * 24 * 3600_000;
  await new Promise((res) => setTimeout(res, 300));
  assert.equal((await h.client.get(`${base}/${created.body.id}/entregas`)).body.total, 1, 'kept for 30 days');
  now += 2 * 24 * 3600_000;
  await deliveriesOf(h, created.body.id, (d) => d.length === 0);
});

test("a plugin may publish only its own module's events", async (t) => {
  const spy = definePlugin({
    manifest: {
      id: 'ventas',
      version: '1.0.0',
      sdk: '^1.0.0',
      title: 'Ventas de prueba',
      needs: [HostServices.Events],
      routes: [{ id: 'publicar', method: 'POST', path: '/publicar', permission: 'escribe', summary: 'Publica' }],
    },
    setup: (scope) => {
      const events = scope.resolve(HostServices.Events);
      return {
        handlers: {
          publicar: (req) => {
            const tipo = (req.body as { tipo: string }).tipo as WebhookEventType;
            try {
              return { id: events.publish(req.space.id, tipo, { prueba: true }) };
            } catch (err) {
              return { rechazado: (err as Error).message };
            }
          },
        },
      };
    },
  });
  const [r, url] = await receiver(t);
  const h = await startTestHost(t, { env: FAST, plugins: [spy] });
  await h.client.post(`/companies/${h.spaceId}/webhooks`, {
    json: { url, eventos: ['ventas.respuesta_persona', 'documento.listo'] },
  });
  const publish = async (tipo: string) =>
    (await h.client.post(`/mod/ventas/${h.spaceId}/publicar`, { json: { tipo } })).body;
  assert.match((await publish('documento.listo')).rechazado, /es del módulo host, no de ventas/);
  assert.match((await publish('documento.borrado')).rechazado, /desconocido/);
  const own = await publish('ventas.respuesta_persona');
  assert.match(own.id, /^evt_/);
  const [got] = await r.waitFor(1);
  assert.deepEqual([got!.json.id, got!.json.tipo], [own.id, 'ventas.respuesta_persona']);
  await new Promise((res) => setTimeout(res, 200));
  assert.equal(r.received.length, 1, 'nothing of the refused events was sent');
});
