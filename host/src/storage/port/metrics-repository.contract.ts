import assert from 'node:assert/strict';
import { contractCase } from './contract-case.js';
import type { DocumentCount, MetricsRepository } from './metrics-repository.js';

/** A metrics repository under test and a way to store documents as the indexing queue does. */
export interface MetricsFixture {
  repo: MetricsRepository;
  addDocument(space: string, state: 'queued' | 'processing' | 'ready' | 'failed', passages: number): Promise<void>;
  close(): Promise<void>;
}

const sorted = (rows: DocumentCount[]) =>
  [...rows].sort((a, b) => `${a.space} ${a.state}`.localeCompare(`${b.space} ${b.state}`));

/** The behaviour every metrics repository must have, whatever its database. */
export function metricsRepositoryContract(name: string, make: () => Promise<MetricsFixture>): void {
  const withRepo = contractCase(name, make);

  withRepo('documents and passages are counted per space and state', async ({ repo, addDocument }) => {
    assert.deepEqual(await repo.documentCounts(), []);
    await addDocument('uno', 'ready', 10);
    await addDocument('uno', 'ready', 5);
    await addDocument('uno', 'queued', 0);
    await addDocument('dos', 'failed', 0);
    assert.deepEqual(sorted(await repo.documentCounts()), [
      { space: 'dos', state: 'failed', documents: 1, passages: 0 },
      { space: 'uno', state: 'queued', documents: 1, passages: 0 },
      { space: 'uno', state: 'ready', documents: 2, passages: 15 },
    ]);
  });
}
