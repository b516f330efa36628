import assert from 'node:assert/strict';
import type { DocumentOrigin } from '@cerebro/sdk';
import { contractCase } from './contract-case.js';
import type { DocumentOriginRepository } from './document-origin-repository.js';

/** An origin repository under test, and documents stored (and deleted) as the indexing queue does. */
export interface DocumentOriginFixture {
  repo: DocumentOriginRepository;
  /** Stores a document of `space`; returns its id. */
  addDocument(space: string, name: string): Promise<string>;
  /** Deletes a document's row, as removing a document does. */
  deleteDocument(space: string, id: string): Promise<void>;
  close(): Promise<void>;
}

const origin = (fuente: string | null, url: string): DocumentOrigin => ({
  fuente,
  url,
  obtenido: '2026-03-01T10:00:00.000Z',
  etag: '"abc"',
  ultima_modificacion: null,
  hash: 'h1',
});

/** The behaviour every document origin repository must have, whatever its database. */
export function documentOriginRepositoryContract(name: string, make: () => Promise<DocumentOriginFixture>): void {
  const withRepo = contractCase(name, make);

  withRepo('an origin is stored per document, replaced whole and cleared', async ({ repo, addDocument }) => {
    const doc = await addDocument('uno', 'a.md');
    assert.equal(await repo.get('uno', doc), null);
    await repo.put('uno', doc, 'fuentes', origin('web', 'https://a.example/'));
    assert.deepEqual(await repo.get('uno', doc), {
      modulo: 'fuentes',
      fuente: 'web',
      url: 'https://a.example/',
      obtenido: '2026-03-01T10:00:00.000Z',
      etag: '"abc"',
      ultima_modificacion: null,
      hash: 'h1',
    });
    assert.equal(await repo.get('dos', doc), null, 'another space');
    await repo.put('uno', doc, 'landing', origin(null, 'https://b.example/'));
    assert.deepEqual([(await repo.get('uno', doc))?.modulo, (await repo.get('uno', doc))?.fuente], ['landing', null]);
    await repo.clear('uno', doc);
    assert.equal(await repo.get('uno', doc), null);
  });

  withRepo('origins of several documents, and of one module or one of its sources', async ({ repo, addDocument }) => {
    const [a, b, c] = [
      await addDocument('uno', 'a.md'),
      await addDocument('uno', 'b.md'),
      await addDocument('uno', 'c.md'),
    ];
    await repo.put('uno', a, 'fuentes', origin('web', 'https://a.example/'));
    await repo.put('uno', b, 'fuentes', origin('blog', 'https://b.example/'));
    await repo.put('uno', c, 'landing', origin(null, 'https://c.example/'));
    const some = await repo.ofDocuments('uno', [a, c, 'nadie']);
    assert.deepEqual([...some.keys()].sort(), [a, c].sort());
    assert.equal(some.get(c)?.modulo, 'landing');
    assert.deepEqual([...(await repo.ofModule('uno', 'fuentes')).keys()].sort(), [a, b].sort());
    assert.deepEqual([...(await repo.ofModule('uno', 'fuentes', 'blog')).keys()], [b]);
    assert.equal((await repo.ofModule('dos', 'fuentes')).size, 0);
  });

  withRepo('a deleted document takes its origin with it', async ({ repo, addDocument, deleteDocument }) => {
    const doc = await addDocument('uno', 'a.md');
    await repo.put('uno', doc, 'fuentes', origin('web', 'https://a.example/'));
    await deleteDocument('uno', doc);
    assert.equal(await repo.get('uno', doc), null);
    assert.equal((await repo.ofModule('uno', 'fuentes')).size, 0);
  });
}
