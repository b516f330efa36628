import assert from 'node:assert/strict';
import { contractCase } from './contract-case.js';
import type { DocumentLabelRepository } from './document-label-repository.js';

/** A label repository under test and a way to store documents as the indexing queue does. */
export interface DocumentLabelFixture {
  repo: DocumentLabelRepository;
  /** Stores a document of `space` created at `createdAt`; returns its id. */
  addDocument(space: string, name: string, createdAt: string): Promise<string>;
  close(): Promise<void>;
}

const AT = '2026-03-01T10:00:00.000Z';

/** The behaviour every document label repository must have, whatever its database. */
export function documentLabelRepositoryContract(name: string, make: () => Promise<DocumentLabelFixture>): void {
  const withRepo = contractCase(name, make);

  withRepo(
    'labels are stored per document, replaced whole, and removed when emptied',
    async ({ repo, addDocument }) => {
      const doc = await addDocument('uno', 'a.md', AT);
      assert.equal(await repo.get('uno', doc), null);
      await repo.put('uno', doc, { tags: ['precios'], metadata: { año: 2026, vigente: true } }, AT);
      assert.deepEqual(await repo.get('uno', doc), { tags: ['precios'], metadata: { año: 2026, vigente: true } });
      assert.equal(await repo.get('dos', doc), null, 'another space');
      await repo.put('uno', doc, { tags: ['horarios'], metadata: {} }, AT);
      assert.deepEqual(await repo.get('uno', doc), { tags: ['horarios'], metadata: {} });
      await repo.put('uno', doc, { tags: [], metadata: {} }, AT);
      assert.equal(await repo.get('uno', doc), null);
    },
  );

  withRepo('labels of several documents are read at once', async ({ repo, addDocument }) => {
    const [a, b, c] = [
      await addDocument('uno', 'a.md', AT),
      await addDocument('uno', 'b.md', AT),
      await addDocument('uno', 'c.md', AT),
    ];
    await repo.put('uno', a, { tags: ['x'], metadata: {} }, AT);
    await repo.put('uno', c, { tags: [], metadata: { k: 'v' } }, AT);
    const found = await repo.labelsOf('uno', [a, b, c]);
    assert.deepEqual([...found.keys()].sort(), [a, c].sort());
    assert.deepEqual(found.get(c), { tags: [], metadata: { k: 'v' } });
  });

  withRepo('filters keep documents with every tag and every metadata value, typed', async ({ repo, addDocument }) => {
    const a = await addDocument('uno', 'a.md', '2026-03-01T10:00:00.000Z');
    const b = await addDocument('uno', 'b.md', '2026-03-01T11:00:00.000Z');
    const c = await addDocument('uno', 'c.md', '2026-03-01T12:00:00.000Z');
    await addDocument('dos', 'a.md', AT);
    await repo.put('uno', a, { tags: ['precios', 'tienda'], metadata: { año: 2026 } }, AT);
    await repo.put('uno', b, { tags: ['precios'], metadata: { año: '2026' } }, AT);
    await repo.put('uno', c, { tags: ['tienda'], metadata: { vigente: true } }, AT);
    assert.deepEqual([...(await repo.matching('uno', { tags: ['precios'] }))].sort(), [a, b].sort());
    assert.deepEqual([...(await repo.matching('uno', { tags: ['precios', 'tienda'] }))], [a]);
    assert.deepEqual([...(await repo.matching('uno', { metadata: { año: 2026 } }))], [a], 'the number, not the text');
    assert.deepEqual([...(await repo.matching('uno', { metadata: { vigente: true } }))], [c]);
    assert.equal((await repo.matching('uno', {})).size, 3, 'no filter: every document of the space');
    assert.deepEqual(await repo.page('uno', {}, { limit: 2, offset: 1 }), { total: 3, ids: [b, c] });
    assert.deepEqual(await repo.page('uno', { tags: ['tienda'] }, { limit: 10, offset: 0 }), { total: 2, ids: [a, c] });
  });
}
