// Studio in Chromium: the Modelos page shows the server's models, where they run and whether they answer, with an
// OpenAI-compatible answer endpoint that answers and no search model configured (issue #26 item 3).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { checkPage, goTo, openPage, signInThroughForm, startStudioWorld } from './support/studio-ui.js';

test('Studio Modelos: each model with where it runs and whether it answers; no key shown', async (t) => {
  const chat = createServer((req, res) => {
    res.writeHead(req.url === '/v1/models' ? 200 : 404, { 'content-type': 'application/json' }).end('{"data":[]}');
  });
  await new Promise<void>((resolve) => chat.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => chat.close(resolve)));
  const chatUrl = `http://127.0.0.1:${(chat.address() as AddressInfo).port}/v1`;
  const world = await startStudioWorld(t, {
    CEREBRO_LLM_URL: chatUrl,
    CEREBRO_LLM_MODEL: 'qwen2.5-7b-instruct',
    CEREBRO_LLM_API_KEY: 'clave-secreta-del-operador',
  });
  const { page, seen } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'modelos', 'Modelos');
  const answers = page.locator('tr[data-modelo="respuestas"]');
  await answers.waitFor();
  assert.match(await answers.innerText(), /qwen2\.5-7b-instruct[\s\S]*Servicio externo[\s\S]*Responde/);
  assert.match(await answers.innerText(), new RegExp(chatUrl.replace(/\./g, '\\.')));
  assert.match(await page.locator('tr[data-modelo="embeddings"]').innerText(), /Sin configurar[\s\S]*solo|por texto/);
  assert.doesNotMatch(await page.locator('main').innerText(), /clave-secreta/);
  const api = await world.h.client.get('/modelos');
  assert.equal(api.body.respuestas.estado, 'responde');
  await checkPage(page, 'studio-modelos');
  await page.setViewportSize({ width: 375, height: 800 });
  await checkPage(page, 'studio-modelos-375');
  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
});
