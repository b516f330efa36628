import assert from 'node:assert/strict';
import type { AnswerCacheRepository } from './answer-cache-repository.js';
import { contractCase } from './contract-case.js';

/** An answer cache repository under test. */
export interface AnswerCacheFixture {
  repo: AnswerCacheRepository;
  close(): Promise<void>;
}

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T10:05:00.000Z';
const T2 = '2026-03-01T10:10:00.000Z';

/** The behaviour every answer cache repository must have, whatever its database. */
export function answerCacheRepositoryContract(name: string, make: () => Promise<AnswerCacheFixture>): void {
  const withRepo = contractCase(name, make);

  withRepo('an answer is served until it expires, per space and key', async ({ repo }) => {
    await repo.put('uno', 'k1', '{"text":"A"}', T0, T1);
    assert.deepEqual(await repo.take('uno', 'k1', T0), { answer: '{"text":"A"}', createdAt: T0 });
    assert.equal(await repo.take('dos', 'k1', T0), null, 'another space');
    assert.equal(await repo.take('uno', 'k2', T0), null, 'another key');
    assert.equal(await repo.take('uno', 'k1', T1), null, 'expired at its time');
  });

  withRepo('storing under the same key replaces the answer and its expiry', async ({ repo }) => {
    await repo.put('uno', 'k1', '"viejo"', T0, T1);
    await repo.put('uno', 'k1', '"nuevo"', T1, T2);
    assert.deepEqual(await repo.take('uno', 'k1', T1), { answer: '"nuevo"', createdAt: T1 });
  });

  withRepo("clearing empties one space's cache; purging drops only what expired", async ({ repo }) => {
    await repo.put('uno', 'a', '1', T0, T1);
    await repo.put('uno', 'b', '2', T0, T2);
    await repo.put('dos', 'a', '3', T0, T2);
    assert.equal(await repo.purgeExpired(T1), 1);
    assert.equal(await repo.clear('uno'), 1);
    assert.equal(await repo.take('uno', 'b', T0), null);
    assert.deepEqual(await repo.take('dos', 'a', T0), { answer: '3', createdAt: T0 });
  });
}
