// Logs of the work (issue #17, part 5): indexing start, end and failure per document without its name or text,
// each applied migration, and unknown names in CEREBRO_PLUGINS_ALLOW.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startHost } from '@cerebro/host';
import { TestClient } from '@cerebro/sdk/testing';
import { counterPlugin } from './support/plugins.js';
import { filesForm, waitIndexed } from './support/rag.js';

interface Line {
  msg: string;
  level: number;
  [field: string]: unknown;
}

test('indexing, migrations and the allow list leave their lines; no line names a document or quotes its text', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-worklogs-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const written: string[] = [];
  const host = await startHost({
    env: { ...process.env, CEREBRO_PLUGINS_ALLOW: 'contador,contadro' },
    config: { dataDir, port: 0, host: '127.0.0.1', logLevel: 'info', discoverPlugins: false, bootstrapDemo: false },
    plugins: [counterPlugin],
    logDestination: {
      write: (chunk: string) => {
        written.push(chunk);
      },
    },
  });
  t.after(() => host.close());
  const owner = await host.admin.createOwner({ name: 'P' });
  await host.admin.createSpace({ id: 'uno', ownerId: owner.id, modules: ['api'] });
  const client = new TestClient(`${host.url}/api`, (await host.admin.issueKey(owner.id, 'k', [], 'escribe')).token);
  const upload = await client.post('/rag/uno/load_documents', {
    body: filesForm({
      'nomina-ana-garcia.md': '# Nómina\n\nSalario confidencial de Ana: 2.345,67 euros.\n',
      'vacia-de-luis.txt': '',
    }),
  });
  assert.equal(upload.status, 202);
  await waitIndexed(client, 'uno');
  await new Promise((resolve) => setImmediate(resolve));
  const text = written.join('');
  const lines: Line[] = text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const [ready, failed] = upload.body.documentos.map((d: { id: string }) => d.id);

  const started = lines.filter((l) => l.msg === 'indexación iniciada');
  assert.deepEqual(started.map((l) => l.documento).sort(), [ready, failed].sort());
  const done = lines.find((l) => l.msg === 'indexación terminada');
  assert.equal(done?.documento, ready);
  assert.equal(done?.espacio, 'uno');
  assert.equal(typeof done?.ms, 'number');
  assert.ok((done?.pasajes as number) > 0);
  const failure = lines.find((l) => l.msg === 'indexación fallida');
  assert.equal(failure?.documento, failed);
  assert.equal(failure?.codigo, 'vacio');
  assert.match(String(failure?.motivo), /vacío/);
  // The figure is written with its separators: bare digits could match a timestamp or an identifier in any line.
  assert.doesNotMatch(text, /nomina-ana|vacia-de-luis|Salario|2\.345,67/);

  const migrations = lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('migración'));
  assert.ok(migrations.some((l) => l.msg === 'migración del host aplicada'));
  assert.deepEqual(
    migrations.filter((l) => l.plugin === 'contador').map((l) => l.migracion),
    ['0001_visitas'],
  );

  const allow = lines.find((l) => l.msg === 'CEREBRO_PLUGINS_ALLOW nombra plugins que no se encontraron');
  assert.deepEqual(allow?.desconocidos, ['contadro']);
  assert.equal(allow?.level, 40);
});
