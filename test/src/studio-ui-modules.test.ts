// Studio in Chromium: the brand editor and its persona, the ventas catalog import preview, and a person's reply
// into a handed-off conversation (seen through the API), then handing it back to the agent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkPage, goTo, openPage, signInThroughForm, startStudioWorld } from './support/studio-ui.js';

test('Studio brand: editing the brand changes the persona the sales agent reads', async (t) => {
  const world = await startStudioWorld(t);
  const { page, seen } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'espacios/demo/marca', 'Marca');
  const persona = page.getByTestId('persona');
  await persona.waitFor();
  assert.match(await persona.innerText(), /^Eres Asistente, asesor de ventas de demo/);
  await checkPage(page, 'studio-marca');

  await page.getByLabel('Nombre de la marca').fill('Deportes Ría');
  await page.getByLabel('Nombre del agente').fill('Lucía');
  await page.getByLabel('Línea de negocio').fill('tienda de ropa deportiva');
  await page.getByLabel('cercano').uncheck();
  await page.getByLabel('formal').check();
  // Live: the persona follows the form before anything is saved, built by marca's own code.
  const draft = page.getByTestId('persona-borrador');
  assert.match(
    await draft.innerText(),
    /^Eres Lucía, asesor de ventas de Deportes Ría, tienda de ropa deportiva\.\nTu tono es profesional: .* y formal: /,
  );
  assert.match((await world.h.client.get('/mod/marca/demo/persona')).body.persona, /^Eres Asistente/, 'not saved yet');
  await checkPage(page, 'studio-marca-borrador');
  await page.getByRole('button', { name: 'Guardar la marca' }).click();
  await page.getByRole('status').filter({ hasText: 'Marca guardada' }).waitFor();
  await persona.filter({ hasText: 'Eres Lucía' }).waitFor();
  assert.match(await persona.innerText(), /^Eres Lucía, asesor de ventas de Deportes Ría, tienda de ropa deportiva\./);
  const api = await world.h.client.get('/mod/marca/demo/persona');
  assert.equal(api.body.persona, await persona.innerText(), 'the preview is exactly what the API gives the agent');
  assert.equal(await draft.count(), 0, 'nothing left unsaved');
  assert.deepEqual((await world.h.client.get('/mod/marca/demo/config')).body.estilo.tono.sort(), [
    'formal',
    'profesional',
  ]);

  // The sales switch (off by default) sits beside the brand's: the brand reaches conversations only with it on.
  const salesSwitch = page.getByRole('switch', { name: 'Usar la marca en el agente de ventas' });
  assert.equal(await salesSwitch.isChecked(), false);
  await salesSwitch.check();
  await page.getByRole('status').filter({ hasText: 'El agente de ventas usa la marca.' }).waitFor();
  assert.equal((await world.h.client.get('/mod/ventas/demo/leads-config')).body.marca_activa, true);

  // A refused change shows the API's own message and stores nothing.
  await page.getByLabel('formal').uncheck();
  await page.getByLabel('cercano').check();
  await page.getByLabel('divertido').check();
  await page.getByLabel('sereno').check();
  await page.getByRole('button', { name: 'Guardar la marca' }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'No se guardó' });
  await refused.waitFor();
  assert.match(await refused.innerText(), /estilo\.tono/);
  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
});

test('Studio ventas: the CSV import lists every bad line before anything is stored; a good file imports', async (t) => {
  const world = await startStudioWorld(t);
  const { page } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'espacios/demo/catalogo', 'Catálogo');
  await page.getByText('El catálogo está vacío.').waitFor();
  const header = 'id;nombre;precio;moneda;stock;envio\n';
  const bad = `${header}zap;Zapatillas;249900;COP;3;Bogotá=10000\ngorra;Gorra;treinta;COP;2;\ntermo;Termo;35000;COP;-1;\n`;
  await page
    .getByLabel('Elegir archivo CSV')
    .setInputFiles({ name: 'catalogo.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
  const lines = page.getByTestId('lineas-malas');
  await lines.waitFor();
  const text = await lines.innerText();
  assert.match(text, /3\s+línea 3: precio|3\s+.*precio/);
  assert.match(text, /4\s+.*stock/);
  assert.equal(await page.getByRole('button', { name: /^Importar/ }).count(), 0, 'no import while a line is bad');
  assert.equal((await world.h.client.get('/mod/ventas/demo/productos')).body.total, 0, 'the preview stored nothing');
  await checkPage(page, 'studio-catalogo-errores');

  const good = `${header}zap;Zapatillas;249900;COP;3;Bogotá=10000\ntermo;Termo;35000;COP;4;\nbroca-set;Juego de brocas;89,9;EUR;2;\n`;
  await page
    .getByLabel('Elegir archivo CSV')
    .setInputFiles({ name: 'catalogo.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
  await page.getByRole('button', { name: 'Importar 3 productos' }).click();
  await page.getByRole('status').filter({ hasText: 'Importados 3 productos' }).waitFor();
  await page.getByRole('row', { name: /Termo/ }).waitFor();
  assert.equal((await world.h.client.get('/mod/ventas/demo/productos')).body.total, 3);
  // Prices in the catalog's money format, the one the agent's replies and landing pages use (issue #26 item 5).
  assert.match(await page.getByRole('row', { name: /Juego de brocas/ }).innerText(), /89,90 EUR/);
  assert.match(await page.getByRole('row', { name: /Zapatillas/ }).innerText(), /249\.900 COP/);
  await checkPage(page, 'studio-catalogo');

  // One product at a time: add (a price typed with a decimal comma, shipping per city), edit, delete.
  await page.getByRole('button', { name: 'Añadir producto' }).click();
  let editor = page.getByRole('region', { name: 'Añadir un producto' });
  await editor.getByLabel('Id').fill('taladro-500');
  await editor.getByLabel('Nombre').fill('Taladro 500 W');
  await editor.getByLabel('Precio').fill('59,5');
  assert.equal(await editor.getByLabel('Moneda').inputValue(), 'COP', "the catalog's currency is proposed");
  await editor.getByLabel('Moneda').fill('EUR');
  await editor.getByLabel('Stock').fill('7');
  await editor.getByLabel('Envío por ciudad (opcional)').fill('Madrid=4,5\nValencia=6');
  await checkPage(page, 'studio-catalogo-producto-nuevo');
  await editor.getByRole('button', { name: 'Añadir producto' }).click();
  await page.getByRole('status').filter({ hasText: 'Se guardó «Taladro 500 W».' }).waitFor();
  const added = (await world.h.client.get('/mod/ventas/demo/productos/taladro-500')).body;
  assert.deepEqual(
    [added.nombre, added.precio, added.moneda, added.stock, added.envio],
    ['Taladro 500 W', 59.5, 'EUR', 7, { Madrid: 4.5, Valencia: 6 }],
  );
  assert.match(await page.getByRole('row', { name: /Taladro 500 W/ }).innerText(), /59,50 EUR/);

  // A refused value shows the API's message and stores nothing.
  await page.getByRole('button', { name: 'Editar Taladro 500 W' }).click();
  editor = page.getByRole('region', { name: 'Editar «Taladro 500 W»' });
  assert.equal(await editor.getByLabel('Id').getAttribute('readonly'), '', 'an existing id is fixed');
  await editor.getByLabel('Moneda').fill('EU');
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await page.getByRole('alert').filter({ hasText: 'moneda' }).waitFor();
  await editor.getByLabel('Moneda').fill('EUR');
  await editor.getByLabel('Stock').fill('3');
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await page.getByRole('status').filter({ hasText: 'Se guardó «Taladro 500 W».' }).waitFor();
  assert.equal((await world.h.client.get('/mod/ventas/demo/productos/taladro-500')).body.stock, 3);

  await page.getByRole('button', { name: 'Eliminar Taladro 500 W' }).click();
  await page.getByRole('button', { name: 'Sí, eliminar' }).click();
  await page.getByRole('status').filter({ hasText: 'Se eliminó «Taladro 500 W».' }).waitFor();
  assert.equal((await world.h.client.get('/mod/ventas/demo/productos/taladro-500')).status, 404);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole('button', { name: 'Editar Termo' }).click();
  await checkPage(page, 'studio-catalogo-producto-editar-375');
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('Studio ventas: a person answers a handed-off conversation, the API shows the reply, and it goes back to the agent', async (t) => {
  const world = await startStudioWorld(t);
  const sales = '/mod/ventas/demo/conversaciones';
  const opened = await world.h.client.post(sales, {
    json: {
      mensaje: 'Hola, quiero hablar con una persona',
      contacto: { nombre: 'Carla Ruiz', telefono: '3001234567' },
    },
  });
  assert.equal(opened.body.estado, 'derivada', opened.text);
  const id = opened.body.conversacion as string;
  const waiting = await world.h.client.post(sales, {
    json: { mensaje: 'Busco zapatillas para correr', conversacion: id },
  });
  assert.equal(waiting.body.respuesta, null, 'the agent stays quiet while a person has it');

  const { page, seen } = await openPage(world);
  await signInThroughForm(page, world.studio);
  await goTo(page, world.studio, 'espacios/demo/conversaciones', 'Conversaciones');
  await page.getByRole('button', { name: /Carla Ruiz/ }).click();
  await page.getByRole('heading', { level: 2, name: 'Carla Ruiz' }).waitFor();
  const messages = page.getByRole('list', { name: 'Mensajes' });
  await messages.getByText('Busco zapatillas para correr').waitFor();
  assert.match(
    await page.getByRole('region', { name: 'Carla Ruiz' }).innerText(),
    /El cliente pidió hablar con una persona/,
  );
  await checkPage(page, 'studio-conversaciones');

  // The navigation shows how many wait for a person; a new handoff raises it and is announced (issue #26 item 3).
  const inbox = page.getByRole('navigation', { name: 'Secciones' }).getByRole('link', { name: /^Conversaciones/ });
  assert.equal(await inbox.textContent(), 'Conversaciones1 espera a una persona');
  const another = await world.h.client.post(sales, {
    json: { mensaje: 'Quiero hablar con una persona, por favor', contacto: { nombre: 'Luis Gil' } },
  });
  assert.equal(another.body.estado, 'derivada', another.text);
  await page.evaluate('document.dispatchEvent(new Event("visibilitychange"))'); // as when the owner comes back to the tab
  await inbox.filter({ hasText: '2 esperan a una persona' }).waitFor();
  await page.getByRole('status').filter({ hasText: 'Una conversación nueva espera a una persona.' }).waitFor();
  await page.getByLabel(/Aviso sonoro/).check();
  assert.equal(await page.evaluate('localStorage.getItem("cerebro.studio.aviso_sonoro")'), '1');

  await page
    .getByLabel('Responder como persona del equipo')
    .fill('Hola Carla, soy Marta. Te ayudo con las zapatillas.');
  await page.getByRole('button', { name: 'Enviar respuesta' }).click();
  await page.getByRole('status').filter({ hasText: 'Respuesta enviada' }).waitFor();
  await page.getByText('Hola Carla, soy Marta.', { exact: false }).waitFor();
  const seenByApi = await world.h.client.get(`${sales}/${id}`);
  const last = seenByApi.body.mensajes.at(-1);
  assert.equal(last.texto, 'Hola Carla, soy Marta. Te ayudo con las zapatillas.');
  assert.equal(last.rol, 'persona');

  await page.getByRole('button', { name: 'Devolver al agente' }).click();
  await page.getByRole('status').filter({ hasText: 'vuelve al agente' }).waitFor();
  assert.equal((await world.h.client.get(`${sales}/${id}`)).body.estado, 'activa');
  assert.deepEqual(seen.consoleErrors, []);
  assert.deepEqual(seen.serverErrors, []);
});
