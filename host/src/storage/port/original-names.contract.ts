import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DocumentJobRepository, NewDocument } from './document-job-repository.js';

const AT = '2026-01-01T00:00:00.000Z';

const version = (name: string, path: string): NewDocument => ({
  name,
  mediaType: 'text/plain',
  format: 'text',
  bytes: 10,
  sha256: null,
  path,
});

/** `DocumentJobRepository.namedOriginals`, what the start-up sweep of originals asks before deleting a file. */
export function originalNamesContract(
  name: string,
  make: () => Promise<{ repo: DocumentJobRepository; close(): Promise<void> }>,
): void {
  test(`${name}: the originals documents name are told apart from the rest, in any space, by exact name`, async () => {
    const { repo, close } = await make();
    try {
      await repo.submit('uno', version('a.txt', 'documentos/aaa/1'), 'id-1', AT);
      await repo.submit('dos', version('a.txt', 'documentos/bbb/2'), 'id-2', AT);
      await repo.submit('dos', version('pagina.html', 'bd:3'), 'id-3', AT);
      const asked = [
        'documentos/aaa/1',
        'documentos/bbb/2',
        'bd:3',
        'documentos/aaa/9',
        'documentos/aaa',
        'DOCUMENTOS/AAA/1',
      ];
      assert.deepEqual((await repo.namedOriginals(asked)).sort(), ['bd:3', 'documentos/aaa/1', 'documentos/bbb/2']);
      assert.deepEqual(await repo.namedOriginals([]), []);
      assert.deepEqual(await repo.namedOriginals(['documentos/aaa/1', 'documentos/aaa/1']), ['documentos/aaa/1']);
    } finally {
      await close();
    }
  });

  test(`${name}: a replaced version's original is no longer named, the new one is, from the same submit`, async () => {
    const { repo, close } = await make();
    try {
      await repo.submit('s', version('a.txt', 'documentos/ccc/v1'), 'id-1', AT);
      const { replaced } = await repo.submit('s', version('a.txt', 'documentos/ccc/v2'), 'id-2', AT);
      assert.equal(replaced, true);
      // The replaced version is retired by the caller (moved aside): the live folder's sweep must not count on it.
      assert.deepEqual(await repo.namedOriginals(['documentos/ccc/v1', 'documentos/ccc/v2']), ['documentos/ccc/v2']);
    } finally {
      await close();
    }
  });

  test(`${name}: a read of 500 names, as the sweep sends them, answers the named ones among them`, async () => {
    const { repo, close } = await make();
    try {
      const paths = Array.from({ length: 500 }, (_, i) => `documentos/ddd/${String(i).padStart(3, '0')}`);
      for (const i of [0, 250, 499]) await repo.submit('s', version(`${i}.txt`, paths[i]!), `id-${i}`, AT);
      assert.deepEqual((await repo.namedOriginals(paths)).sort(), [paths[0], paths[250], paths[499]]);
    } finally {
      await close();
    }
  });
}
