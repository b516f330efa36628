import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestHost } from '@cerebro/sdk/testing';
import { startModelServer } from '../cerebro/testing/fake-model-server.js';
import { testBackend } from '../test-kit/scratch-backend.js';

const TABLE = { coche: [1, 0, 0], automovil: [1, 0, 0], perro: [0, 1, 0], garaje: [0, 0, 1] };

/** Health details (the `cerebro` entry) are shown to the operator credential only. */
const operatorHealth = async (h: Awaited<ReturnType<typeof startTestHost>>) =>
  (await h.client.get('/health', { key: (await h.admin.issueOperatorCredential('ops')).token })).body;

async function ready(h: Awaited<ReturnType<typeof startTestHost>>, name: string, text: string): Promise<void> {
  const form = new FormData();
  form.append('archivos', new Blob([text]), name);
  await h.client.post(`/rag/${h.spaceId}/load_documents`, { body: form });
  for (let i = 0; i < 200 && !(await h.client.get(`/rag/${h.spaceId}/indexing_status`)).body.listo; i++)
    await new Promise((r) => setTimeout(r, 50));
}

test('embedding and rerank endpoints: hybrid search with reranking, shown in health; a question never fails on them', async (t) => {
  const server = await startModelServer(TABLE, 3);
  t.after(() => server.close());
  const h = await startTestHost(t, {
    env: {
      CEREBRO_EMBEDDING_URL: server.baseUrl,
      CEREBRO_EMBEDDING_MODEL: 'multilingual-e5-small',
      CEREBRO_RERANK_URL: server.baseUrl,
      CEREBRO_RERANK_MODEL: 'bge-reranker-v2-m3',
      CEREBRO_RERANK_TOP_N: '3',
      CEREBRO_RERANK_TIMEOUT_MS: '5000',
    },
  });
  const onPostgres = testBackend() === 'postgres';
  const { busqueda_vectores, ...cerebro } = (await operatorHealth(h)).cerebro;
  assert.deepEqual(cerebro, {
    busqueda: 'hibrida',
    reordenacion: 'activa',
    indice_pasajes: onPostgres ? 'postgresql_bm25' : 'sqlite_fts5',
    motor: 'extractivo',
    archivos: 'carpeta_de_datos',
  });
  const vectors = onPostgres ? ['pgvector', 'exacta_en_el_motor'] : ['sqlite_vec'];
  assert.ok(vectors.includes(busqueda_vectores), busqueda_vectores);
  await ready(
    h,
    'taller.md',
    '# Taller\n\nEl coche se guarda en el garaje del taller.\n\n# Perros\n\nEl perro duerme en su caseta.\n',
  );

  const asked = await h.client.post(`/rag/${h.spaceId}/conversations`, {
    json: { pregunta: '¿Dónde se guarda el automóvil?' },
  });
  assert.equal(asked.status, 200);
  assert.match(asked.body.respuesta, /garaje/);
  const rerank = server.requests.filter((r) => r.path === '/v1/rerank').at(-1)!;
  assert.equal(rerank.body.model, 'bge-reranker-v2-m3');
  assert.ok((rerank.body.documents as string[]).length <= 3);
  // The reranker judges relevance: a question about something the documents do not hold is still declined.
  const unrelated = await h.client.post(`/rag/${h.spaceId}/conversations`, {
    json: { pregunta: '¿Cuánto cuesta un billete de avión a Lima?' },
  });
  assert.equal(unrelated.status, 200);
  assert.equal(unrelated.body.encontrada, false);

  // Both endpoints down: the question is answered from full text, and health says so.
  server.status = 503;
  // (A yes/no question whose place is held by the other section, "¿El perro duerme en el garaje?", is declined in this
  // two-passage space since the background word prior: a decision matter, not this test's, noted in issue #21.)
  const degraded = await h.client.post(`/rag/${h.spaceId}/conversations`, {
    json: { pregunta: '¿Dónde duerme el perro?' },
  });
  assert.equal(degraded.status, 200);
  assert.equal(degraded.body.encontrada, true);
  const health = (await operatorHealth(h)).cerebro;
  assert.equal(health.busqueda, 'hibrida');
  assert.match(health.busqueda_aviso, /solo por texto/);
  assert.match(health.reordenacion_aviso, /orden de la búsqueda/);
  assert.doesNotMatch(JSON.stringify(health), /127\.0\.0\.1/);
});

test('endpoints that do not answer at start-up: full text, no reranking, and health tells why', async (t) => {
  const h = await startTestHost(t, {
    env: { CEREBRO_EMBEDDING_URL: 'http://127.0.0.1:9/v1', CEREBRO_RERANK_URL: 'http://127.0.0.1:9/v1' },
  });
  const health = (await operatorHealth(h)).cerebro;
  assert.equal(health.busqueda, 'texto');
  assert.equal(health.reordenacion, 'no disponible');
  assert.match(health.busqueda_aviso, /no se pudo cargar/);
});
