// Studio in Chromium: the Historial de preguntas page (conversations newest first, one opened with its turns, sources
// and ratings, the questions the documents did not answer), at desktop and phone widths, axe clean.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { filesForm, GUIDE_MD, waitIndexed } from './support/rag.js';
import { checkPage, goTo, openPage, signInThroughForm, startStudioWorld } from './support/studio-ui.js';

test('Studio question history: conversations, turns with sources, 👍/👎 with a comment, unanswered questions', async (t) => {
  const world = await startStudioWorld(t);
  const { h } = world;
  await h.client.post('/rag/demo/load_documents', { body: filesForm({ 'guia.md': GUIDE_MD }) });
  await waitIndexed(h.client, 'demo');
  const ask = async (pregunta: string, conversacion?: string) =>
    (await h.client.post('/rag/demo/conversations', { json: { pregunta, ...(conversacion ? { conversacion } : {}) } }))
      .body as { conversacion: string };
  const first = await ask('¿Cómo actualizo el sistema?');
  await ask('¿Cuál es el horario de atención?', first.conversacion);
  await ask('cual es el horario de atencion');

  const { page, seen } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'espacios/demo/historial', 'Historial de preguntas');
  const list = page.getByTestId('conversaciones');
  await list.getByRole('button').first().waitFor();
  assert.equal(await list.getByRole('button').count(), 2);
  // Unanswered questions, grouped: asked twice.
  const unanswered = page.getByTestId('sin-respuesta');
  const row = unanswered.getByRole('row', { name: /horario de atencion/i });
  await row.waitFor();
  assert.match(await row.innerText(), /\b2\b/);
  await checkPage(page, 'studio-historial');

  // The older conversation opens with its two turns; the first shows its sources.
  await list.getByRole('button', { name: /2 preguntas/ }).click();
  const turns = page.getByTestId('turno');
  await turns.nth(1).waitFor();
  assert.equal(await turns.count(), 2);
  await turns.first().getByTestId('fuentes').getByText('guia.md', { exact: false }).first().waitFor();
  await turns.nth(1).getByText('Sin respuesta en los documentos').waitFor();

  // 👎 with a comment on the second turn: stored, shown, and counted in the list.
  await turns.nth(1).getByLabel('Comentario (opcional)').fill('Falta el horario en los documentos');
  await turns
    .nth(1)
    .getByRole('button', { name: /No útil/ })
    .click();
  await turns
    .nth(1)
    .getByTestId('valoracion')
    .getByText('Falta el horario en los documentos', { exact: false })
    .waitFor();
  assert.equal(
    await turns
      .nth(1)
      .getByRole('button', { name: /No útil/ })
      .getAttribute('aria-pressed'),
    'true',
  );
  await list.getByText('👎 1', { exact: false }).waitFor();
  const stored = (await h.client.get(`/rag/demo/conversations/${first.conversacion}`)).body;
  assert.deepEqual(stored.turnos[1].valoracion.valoracion, 'negativa');
  assert.equal(stored.turnos[1].valoracion.comentario, 'Falta el horario en los documentos');
  await checkPage(page, 'studio-historial-conversacion');

  // From the unanswered list, the latest conversation that asked it opens.
  await row.getByRole('button', { name: 'Ver conversación' }).click();
  await page.getByTestId('turno').first().getByText('cual es el horario de atencion').waitFor();

  // A date range with nothing in it empties both lists.
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel('Desde').fill(tomorrow);
  await page.getByText('Todavía no hay preguntas en estas fechas.').waitFor();
  await page.getByText('Los documentos respondieron todo lo preguntado.').waitFor();

  // Phones: everything stacks, nothing scrolls sideways.
  const phone = await openPage(world, 375);
  await signInThroughForm(phone.page, world.studio);
  await goTo(phone.page, world.studio, 'espacios/demo/historial', 'Historial de preguntas');
  await phone.page
    .getByTestId('conversaciones')
    .getByRole('button', { name: /2 preguntas/ })
    .click();
  await phone.page.getByTestId('turno').nth(1).waitFor();
  await checkPage(phone.page, 'studio-historial-movil');

  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
  assert.deepEqual(phone.seen.serverErrors, []);
});
