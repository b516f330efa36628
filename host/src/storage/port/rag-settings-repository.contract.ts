import assert from 'node:assert/strict';
import { contractCase } from './contract-case.js';
import type { RagSettingsRepository } from './rag-settings-repository.js';

/** A settings repository under test. */
export interface RagSettingsFixture {
  repo: RagSettingsRepository;
  close(): Promise<void>;
}

/** The behaviour every rag settings repository must have, whatever its database. */
export function ragSettingsRepositoryContract(name: string, make: () => Promise<RagSettingsFixture>): void {
  const withRepo = contractCase(name, make);

  withRepo('settings are stored per space and replaced whole', async ({ repo }) => {
    assert.equal(await repo.settings('uno'), null, 'defaults until saved');
    await repo.save('uno', '{"pasajes":4}', '2026-03-01T10:00:00.000Z');
    await repo.save('dos', '{"pasajes":9}', '2026-03-01T10:00:00.000Z');
    await repo.save('uno', '{"idioma":"es"}', '2026-03-01T11:00:00.000Z');
    assert.equal(await repo.settings('uno'), '{"idioma":"es"}');
    assert.equal(await repo.settings('dos'), '{"pasajes":9}');
  });
}
