// A host killed between storing an original and recording its document leaves a whole file no document names. The
// next start deletes it once it is an hour old; the originals documents name stay, whatever their age.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { startHost, type RunningHost } from '@cerebro/host';
import { scratchBackend } from '@cerebro/host/test-kit';
import { TestClient } from '@cerebro/sdk/testing';
import { filesForm, GUIDE_MD, waitIndexed } from './support/rag.js';

/** Every file under the data folder's live originals (`documentos/`). */
async function originalFiles(dataDir: string): Promise<string[]> {
  const entries = await readdir(join(dataDir, 'documentos'), { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

async function until(what: string, probe: () => boolean, ms = 15_000): Promise<void> {
  for (const deadline = Date.now() + ms; !probe(); await new Promise((r) => setTimeout(r, 25)))
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
}

test('a restart deletes an hour-old original no document names; the uploaded document keeps its own and answers', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cerebro-barrido-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const backend = await scratchBackend();
  t.after(() => backend.close());
  const start = () =>
    startHost({
      env: { ...process.env, ...backend.env },
      config: { dataDir, port: 0, host: '127.0.0.1', logLevel: 'silent', discoverPlugins: false, bootstrapDemo: false },
    });

  let host: RunningHost = await start();
  const owner = await host.admin.createOwner({ name: 'P' });
  await host.admin.createSpace({ id: 'uno', ownerId: owner.id, modules: ['api'] });
  const key = await host.admin.issueKey(owner.id, 'k', [], 'escribe');
  let client = new TestClient(`${host.url}/api`, key.token);
  assert.equal(
    (await client.post('/rag/uno/load_documents', { body: filesForm({ 'guia.md': GUIDE_MD }) })).status,
    202,
  );
  await waitIndexed(client, 'uno');
  await host.close();

  // What a host killed after renaming an original into place, before its record, leaves: a whole file beside the
  // document's own, in the space's folder. The document's original is as old: its name, not its age, keeps it.
  const [uploaded] = await originalFiles(dataDir);
  assert.ok(uploaded);
  const orphan = join(dirname(uploaded), randomUUID());
  const recent = join(dirname(uploaded), randomUUID());
  await writeFile(orphan, 'nadie me nombra');
  await writeFile(recent, 'quizá alguien me nombre enseguida');
  const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
  for (const file of [uploaded, orphan]) await utimes(file, twoHoursAgo, twoHoursAgo);

  host = await start();
  t.after(() => host.close());
  client = new TestClient(`${host.url}/api`, key.token);
  await until('the start-up sweep', () => !existsSync(orphan));
  assert.equal(existsSync(uploaded), true, 'a document names it');
  assert.equal(existsSync(recent), true, 'an hour has not passed: its writer may still record it');

  const download = await client.get('/rag/uno/documents/guia.md');
  assert.equal(download.status, 200);
  assert.equal(download.text, GUIDE_MD);
  const found = await client.post('/rag/uno/buscar', { json: { pregunta: '¿Cómo actualizo el sistema?' } });
  assert.equal(found.status, 200);
  assert.equal(found.body.pasajes[0].documento, 'guia.md');
  assert.match(found.body.pasajes[0].texto, /apt update/);
});
