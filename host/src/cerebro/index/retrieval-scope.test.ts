import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migratedDb } from '../testing/fixtures.js';
import { seedDocument, sqlitePassageIndex } from '../testing/seed.js';
import { keepInScope } from './retrieval-scope.js';
import { Retriever } from './retriever.js';

test('a narrowed retrieval keeps only the scope documents, reading past many better passages of others', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  // 60 strong passages in other documents outrank the one weak passage of the narrowed document (> 8 × k deep).
  for (let d = 0; d < 20; d++)
    await seedDocument(
      db,
      index,
      'acme',
      `ruido-${d}.md`,
      Array.from({ length: 3 }, (_, i) => ({
        text: `El proxy del proxy se configura con proxy en el equipo ${d}-${i}.`,
      })),
    );
  const target = await seedDocument(db, index, 'acme', 'objetivo.md', [
    { text: 'Una nota larga sobre jardinería, riego y abonos, que menciona de pasada un proxy.' },
  ]);
  const retriever = new Retriever(index);
  const whole = await retriever.retrieve('acme', 'proxy', 5);
  assert.ok(whole.hits.every((h) => h.documentName !== 'objetivo.md'));

  const narrowed = await retriever.retrieve('acme', 'proxy', 5, new Set([target.id]));
  assert.deepEqual(
    narrowed.hits.map((h) => [h.documentName, h.rank]),
    [['objetivo.md', 1]],
  );
  // Scores are the index's own: the same passage scores the same narrowed or not.
  const deep = (await retriever.retrieve('acme', 'proxy', 100)).hits.find((h) => h.documentId === target.id)!;
  assert.equal(narrowed.hits[0]!.bm25, deep.bm25);
  assert.deepEqual((await retriever.retrieve('acme', 'proxy', 5, new Set())).hits, [], 'an empty scope finds nothing');
});

test('keepInScope reads deeper only when the first pass kept too few and the list went on', async () => {
  const depths: number[] = [];
  const list = Array.from({ length: 3000 }, (_, i) => i);
  const fetch = (n: number) => {
    depths.push(n);
    return list.slice(0, n);
  };
  assert.deepEqual(await keepInScope(fetch, (i) => i % 2 === 0, 3), [0, 2, 4]);
  assert.deepEqual(depths, [24]);
  depths.length = 0;
  assert.deepEqual(await keepInScope(fetch, (i) => i === 1500, 3), [1500]);
  assert.deepEqual(depths, [24, 2000]);
  depths.length = 0;
  const short = (n: number) => {
    depths.push(n);
    return list.slice(0, Math.min(n, 10));
  };
  assert.deepEqual(await keepInScope(short, () => false, 3), []);
  assert.deepEqual(depths, [24], 'a list shorter than asked is exhausted: no second pass');
});
