import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startHost } from '../main/start-host.js';
import { embeddingTableModel } from '../cerebro/testing/onnx-model.js';
import { tempDir } from '../cerebro/testing/fixtures.js';

const VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'coche', 'perro'];

async function health(modelDir: string, t: { after(fn: () => unknown): void }): Promise<Record<string, string>> {
  const data = await tempDir();
  t.after(() => data.cleanup());
  const host = await startHost({
    env: { CEREBRO_EMBEDDING_MODEL_DIR: modelDir },
    config: {
      dataDir: data.path,
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      discoverPlugins: false,
      bootstrapDemo: false,
    },
  });
  try {
    const operator = (await host.admin.issueOperatorCredential('ops')).token;
    const res = await fetch(`${host.url}/api/health`, { headers: { authorization: `Bearer ${operator}` } });
    return ((await res.json()) as { cerebro: Record<string, string> }).cerebro;
  } finally {
    await host.close();
  }
}

test('CEREBRO_EMBEDDING_MODEL_DIR with a local ONNX model turns on hybrid retrieval', async (t) => {
  const model = await tempDir();
  t.after(() => model.cleanup());
  await model.file('model.onnx', embeddingTableModel(VOCAB.map((_, i) => Float32Array.from([i % 2, (i + 1) % 2]))));
  await model.file('vocab.txt', `${VOCAB.join('\n')}\n`);
  assert.deepEqual(await health(model.path, t), {
    busqueda: 'hibrida',
    reordenacion: 'desactivada',
    indice_pasajes: 'sqlite_fts5',
    busqueda_vectores: 'sqlite_vec',
    motor: 'extractivo',
    archivos: 'carpeta_de_datos',
  });
});

test('a configured model that is missing is reported and the Cerebro runs on full text instead of failing', async (t) => {
  const reported = await health('/no/existe/modelo', t);
  assert.deepEqual([reported.busqueda, reported.reordenacion, reported.motor], ['texto', 'desactivada', 'extractivo']);
  assert.match(reported.busqueda_aviso!, /no se pudo cargar/);
});
