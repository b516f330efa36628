// Studio in Chromium: the Webhooks page (register one and see its secret once, watch a delivery arrive at a real
// receiver, redeliver it by hand, see the notice of an automatic disable and re-enable, rotate, delete).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { filesForm, GUIDE_MD, waitIndexed } from './support/rag.js';
import { checkPage, goTo, openPage, signInThroughForm, startStudioWorld } from './support/studio-ui.js';
import { verifySignature, WebhookReceiver } from './support/webhook-receiver.js';

test('Studio webhooks: register with the secret shown once, deliveries and redelivery, disable notice, rotate, delete', async (t) => {
  const receiver = new WebhookReceiver();
  const url = await receiver.listen();
  t.after(() => receiver.close());
  const world = await startStudioWorld(t, {
    CEREBRO_WEBHOOKS_PERMITIDOS: '127.0.0.1',
    CEREBRO_WEBHOOKS_RETRY_BASE_MS: '150',
    CEREBRO_WEBHOOKS_RETRY_MAX_DELAY_MS: '300',
    CEREBRO_WEBHOOKS_RETRY_WINDOW_MS: '1500',
    CEREBRO_WEBHOOKS_POLL_MS: '50',
  });
  const { h } = world;
  const { page, seen } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'espacios/demo/webhooks', 'Webhooks');
  await page.getByText('No hay webhooks.').waitFor();

  await page.getByLabel('URL del receptor').fill(url);
  await page.getByLabel('Descripción (opcional)').fill('CRM de la tienda');
  assert.ok(await page.getByLabel('Documento listo').isChecked(), 'documents are subscribed by default');
  await page.getByLabel('Créditos por debajo del umbral').check();
  await page.getByLabel('Umbral de créditos').fill('50');
  await page.getByRole('button', { name: 'Registrar el webhook' }).click();
  const secret = (await page.getByTestId('webhook-secreto').innerText()).trim();
  assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
  assert.ok(await page.getByRole('button', { name: 'Copiar el secreto' }).isVisible());
  const row = page.getByRole('row', { name: new RegExp(url.replace(/[.?]/g, '\\$&')) });
  await row.getByText('Activo').waitFor();
  await checkPage(page, 'studio-webhooks-nuevo');

  // A document becomes ready: the receiver gets it, signed with the secret the page showed.
  await h.client.post('/rag/demo/load_documents', { body: filesForm({ 'guia.md': GUIDE_MD }) });
  await waitIndexed(h.client, 'demo');
  const [first] = await receiver.waitFor(1);
  assert.equal(first!.json.tipo, 'documento.listo');
  assert.ok(verifySignature(first!.headers['cerebro-firma'] as string, first!.body, secret));

  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
  assert.equal(await page.getByTestId('webhook-secreto').count(), 0, 'the secret is never shown again');
  assert.ok(!(await page.content()).includes(secret), 'the secret is nowhere in the page');
  await row.getByRole('button', { name: /Entregas/ }).click();
  const deliveries = page.getByRole('region', { name: /Entregas a/ });
  await deliveries.getByText('Entregada').waitFor();
  await deliveries.getByText(first!.json.id).first().waitFor();
  await checkPage(page, 'studio-webhooks-entregas');
  await deliveries.getByRole('button', { name: /Reenviar/ }).click();
  const [, again] = await receiver.waitFor(2);
  assert.equal(again!.json.id, first!.json.id, 'a redelivery carries the same event id');

  // The receiver breaks: after the retry window the endpoint is disabled and the page says why.
  receiver.behaviour = () => ({ status: 503 });
  await h.client.post('/rag/demo/load_documents', { body: filesForm({ 'dos.md': '# Dos\n\nOtro texto.' }) });
  for (let i = 0; !(await h.client.get('/companies/demo/webhooks')).body.webhooks[0].desactivado; i++) {
    assert.ok(i < 300, 'the endpoint was never disabled');
    await new Promise((r) => setTimeout(r, 50));
  }
  await page.reload();
  const notice = page.getByRole('alert').filter({ hasText: 'Webhook desactivado' });
  await notice.waitFor();
  assert.match(await notice.innerText(), /Desactivado automáticamente/);
  await row.getByText('Desactivado').waitFor();
  await checkPage(page, 'studio-webhooks-desactivado');
  receiver.behaviour = () => ({ status: 200 });
  await row.getByRole('button', { name: /Reactivar/ }).click();
  await row.getByText('Activo').waitFor();
  assert.equal(await notice.count(), 0, 'the notice goes once it is re-enabled');

  await row.getByRole('button', { name: /Nuevo secreto/ }).click();
  const rotated = (await page.getByTestId('webhook-secreto').innerText()).trim();
  assert.notEqual(rotated, secret);
  await page
    .getByText('Durante 24 horas las entregas llevan también la firma con el secreto anterior.', { exact: false })
    .waitFor();

  await row.getByRole('button', { name: /Eliminar/ }).click();
  await row.getByRole('button', { name: 'Sí, eliminar' }).click();
  await page.getByText('No hay webhooks.').waitFor();
  assert.deepEqual((await h.client.get('/companies/demo/webhooks')).body.webhooks, []);
  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
});
