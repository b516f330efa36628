import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { ResponseContract } from './support/response-contract.js';
import { filesForm, GUIDE_MD, waitIndexed } from './support/rag.js';

test('real answers of the main routes (host and plugins) match the response schemas the OpenAPI document declares', async (t) => {
  const h = await startTestHost(t, { discover: true });
  const doc = (await h.client.get('/openapi.json', { key: null })).body;
  const contract = new ResponseContract(doc);
  const c = h.client;
  const s = h.spaceId;
  const check = async (method: string, template: string, path: string, options?: Parameters<typeof c.request>[2]) => {
    const res = await c.request(method, path, options);
    assert.ok(res.status < 300, `${method} ${path} answered ${res.status}: ${res.text.slice(0, 300)}`);
    contract.check(method, template, res);
    return res.body;
  };

  await check('GET', '/health', '/health', { key: null });
  const health = await check('GET', '/health', '/health', {
    key: (await h.admin.issueOperatorCredential('contrato')).token,
  });
  assert.ok(health.plugins.length > 0, 'the operator sees the detailed health');
  await check('GET', '/ready', '/ready', { key: null });
  await check('GET', '/openapi.json', '/openapi.json', { key: null });

  await check('GET', '/companies', '/companies');
  await check('GET', '/companies/{espacio}/cuenta', `/companies/${s}/cuenta`);
  await check('GET', '/cuentas/{cuenta}/bolsa', `/cuentas/${h.accountId}/bolsa?movimientos=5`);
  await check('GET', '/companies/{espacio}/api-config', `/companies/${s}/api-config`);
  await check('PATCH', '/companies/{espacio}/api-config', `/companies/${s}/api-config`, {
    json: { cuota_diaria: 5000 },
  });

  const created = await check('POST', '/tokens', '/tokens', { json: { nombre: 'contrato', permiso: 'lee' } });
  await check('GET', '/tokens', '/tokens');
  await check('DELETE', '/tokens/{id}', `/tokens/${created.token.id}`);

  await check('POST', '/rag/{espacio}/load_documents', `/rag/${s}/load_documents`, {
    body: filesForm({
      'guia.md': GUIDE_MD,
      'programa.exe': 'MZ\u0000binario',
      'informe\u202Efdp.txt': 'nombre engañoso',
    }),
  });
  await waitIndexed(c, s);
  await check('GET', '/rag/{espacio}/indexing_status', `/rag/${s}/indexing_status`);
  await check('GET', '/rag/{espacio}/documents', `/rag/${s}/documents?limite=10`);
  const answer = await check('POST', '/rag/{espacio}/conversations', `/rag/${s}/conversations`, {
    json: { pregunta: '¿Cómo se instala?' },
  });
  await check('POST', '/rag/{espacio}/conversations', `/rag/${s}/conversations`, {
    json: { pregunta: '¿Y después?', conversacion: answer.conversacion },
  });
  await check('POST', '/rag/{espacio}/conversations', `/rag/${s}/conversations`, {
    json: { pregunta: '¿Cómo se instala?' },
  });
  await check('GET', '/rag/{espacio}/config', `/rag/${s}/config`);
  await check('PATCH', '/rag/{espacio}/config', `/rag/${s}/config`, { json: { longitud: 'corta' } });
  await check('DELETE', '/rag/{espacio}/clear_cache', `/rag/${s}/clear_cache`);
  const ficha = await check('POST', '/mod/fuentes/{espacio}/fichas', `/mod/fuentes/${s}/fichas`, {
    json: { tema: 'instalación', campos: ['requisitos', 'pasos'] },
  });
  await check('GET', '/mod/fuentes/{espacio}/fichas', `/mod/fuentes/${s}/fichas`);
  for (
    let i = 0;
    i < 400 &&
    (await check('GET', '/mod/fuentes/{espacio}/fichas/{ficha}', `/mod/fuentes/${s}/fichas/${ficha.id}`)).estado !==
      'lista';
    i++
  )
    await new Promise((r) => setTimeout(r, 25));
  await check('GET', '/mod/fuentes/{espacio}/fichas/{ficha}/markdown', `/mod/fuentes/${s}/fichas/${ficha.id}/markdown`);
  await check('DELETE', '/rag/{espacio}/documents/{archivo}', `/rag/${s}/documents/guia.md`);

  // A source the test never lets reach the network: the run ends fallida on the name that does not resolve.
  const source = await check('POST', '/mod/fuentes/{espacio}/fuentes', `/mod/fuentes/${s}/fuentes`, {
    json: { tipo: 'lista', urls: ['https://ejemplo.invalid/a'], cada_horas: 24 },
  });
  await check(
    'POST',
    '/mod/fuentes/{espacio}/fuentes/{fuente}/lanzar',
    `/mod/fuentes/${s}/fuentes/${source.id}/lanzar`,
  );
  for (
    let i = 0;
    i < 400 &&
    ['en_cola', 'ejecutando'].includes(
      (await check('GET', '/mod/fuentes/{espacio}/fuentes/{fuente}', `/mod/fuentes/${s}/fuentes/${source.id}`))
        .ultima_ejecucion.estado,
    );
    i++
  )
    await new Promise((r) => setTimeout(r, 25));
  await check('GET', '/mod/fuentes/{espacio}/fuentes', `/mod/fuentes/${s}/fuentes`);
  await check('DELETE', '/mod/fuentes/{espacio}/fuentes/{fuente}', `/mod/fuentes/${s}/fuentes/${source.id}`);

  await check('GET', '/mod/marca/{espacio}/config', `/mod/marca/${s}/config`);
  await check('PATCH', '/mod/marca/{espacio}/config', `/mod/marca/${s}/config`, { json: { name: 'Tienda Sol' } });
  await check('GET', '/mod/marca/{espacio}/persona', `/mod/marca/${s}/persona`);

  await check('GET', '/mod/ventas/{espacio}/leads-config', `/mod/ventas/${s}/leads-config`);
  await check('PUT', '/mod/ventas/{espacio}/productos/{producto}', `/mod/ventas/${s}/productos/camiseta`, {
    json: { nombre: 'Camiseta técnica', precio: 25000, moneda: 'COP', stock: 10, envio: { Cali: 8000 } },
  });
  await check('GET', '/mod/ventas/{espacio}/productos/{producto}', `/mod/ventas/${s}/productos/camiseta`);
  await check('GET', '/mod/ventas/{espacio}/productos', `/mod/ventas/${s}/productos`);
  await check('POST', '/mod/ventas/{espacio}/productos/importar', `/mod/ventas/${s}/productos/importar`, {
    json: { csv: 'id,nombre,precio,moneda,stock\ngorra,Gorra,15000,COP,4\nmala,,x,COP,1\n', parcial: true },
  });
  const turn = await check('POST', '/mod/ventas/{espacio}/conversaciones', `/mod/ventas/${s}/conversaciones`, {
    json: { mensaje: 'Hola, quiero 2 camisetas técnicas con envío a Cali' },
  });
  await check('GET', '/mod/ventas/{espacio}/conversaciones', `/mod/ventas/${s}/conversaciones?estado=activa`);
  await check(
    'GET',
    '/mod/ventas/{espacio}/conversaciones/{conversacion}',
    `/mod/ventas/${s}/conversaciones/${turn.conversacion}`,
  );
  await check(
    'POST',
    '/mod/ventas/{espacio}/conversaciones/{conversacion}/reanudar',
    `/mod/ventas/${s}/conversaciones/${turn.conversacion}/reanudar`,
  );
  await check('DELETE', '/mod/ventas/{espacio}/productos/{producto}', `/mod/ventas/${s}/productos/camiseta`);

  assert.ok(contract.checked.size >= 30, `only ${contract.checked.size} operations checked`);
});

test('error answers of the main routes are statuses their operation declares, with the Error schema', async (t) => {
  const h = await startTestHost(t, { discover: true });
  const doc = (await h.client.get('/openapi.json', { key: null })).body;
  const contract = new ResponseContract(doc);
  const c = h.client;
  const s = h.spaceId;
  const expectError = async (
    status: number,
    method: string,
    template: string,
    path: string,
    options?: Parameters<typeof c.request>[2],
  ) => {
    const res = await c.request(method, path, options);
    assert.equal(res.status, status, `${method} ${path}: ${res.text.slice(0, 300)}`);
    contract.check(method, template, res);
  };

  await expectError(401, 'GET', '/companies', '/companies', { key: null });
  await expectError(401, 'GET', '/rag/{espacio}/documents', `/rag/${s}/documents`, {
    key: 'crb_0000000000000000.nada',
  });
  await expectError(403, 'PATCH', '/rag/{espacio}/config', `/rag/${s}/config`, {
    key: h.readKey,
    json: { longitud: 'corta' },
  });
  await expectError(403, 'GET', '/rag/{espacio}/config', '/rag/otro-espacio/config');
  await expectError(403, 'PATCH', '/companies/{espacio}/api-config', `/companies/${s}/api-config`, {
    json: { creditos: 5 },
  });
  await expectError(422, 'GET', '/rag/{espacio}/documents', `/rag/${s}/documents?limite=abc`);
  await expectError(422, 'GET', '/mod/ventas/{espacio}/conversaciones', `/mod/ventas/${s}/conversaciones?estado=otro`);
  await expectError(422, 'POST', '/rag/{espacio}/conversations', `/rag/${s}/conversations`, { json: { pregunta: '' } });
  await expectError(422, 'PATCH', '/rag/{espacio}/config', `/rag/${s}/config`);
  await expectError(422, 'POST', '/rag/{espacio}/load_documents', `/rag/${s}/load_documents`, { body: new FormData() });
  await expectError(400, 'PATCH', '/mod/marca/{espacio}/config', `/mod/marca/${s}/config`, {
    body: '{"name":',
    headers: { 'content-type': 'application/json' },
  });
  await expectError(415, 'POST', '/tokens', '/tokens', {
    body: 'nombre=x',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  await expectError(413, 'PATCH', '/rag/{espacio}/config', `/rag/${s}/config`, {
    json: { instrucciones: 'x'.repeat(1_100_000) },
  });
  await expectError(404, 'DELETE', '/rag/{espacio}/documents/{archivo}', `/rag/${s}/documents/no-existe.pdf`);
  await expectError(404, 'POST', '/rag/{espacio}/conversations', `/rag/${s}/conversations`, {
    json: { pregunta: 'Hola', conversacion: 'conv_inexistente' },
  });
  await expectError(404, 'GET', '/mod/ventas/{espacio}/productos/{producto}', `/mod/ventas/${s}/productos/no-existe`);
  const key = (await c.post('/tokens', { json: { nombre: 'una vez' } })).body.token;
  await c.delete(`/tokens/${key.id}`);
  await expectError(409, 'DELETE', '/tokens/{id}', `/tokens/${key.id}`);
  await expectError(404, 'DELETE', '/tokens/{id}', '/tokens/0000000000000000');

  await c.patch(`/companies/${s}/api-config`, { json: { limite_por_minuto: 1 } });
  await c.get(`/rag/${s}/config`);
  await expectError(429, 'GET', '/rag/{espacio}/config', `/rag/${s}/config`);
  // Account checks (402) come before the rate limit (429) in the pipeline.
  await h.admin.setPayment(h.accountId, { suspended: true });
  await expectError(402, 'GET', '/companies/{espacio}/cuenta', `/companies/${s}/cuenta`);
  await expectError(402, 'GET', '/cuentas/{cuenta}/bolsa', `/cuentas/${h.accountId}/bolsa`);
});
