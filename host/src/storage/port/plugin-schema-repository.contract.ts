import assert from 'node:assert/strict';
import { contractCase } from './contract-case.js';
import type { PluginSchema, PluginSchemaRepository } from './plugin-schema-repository.js';

/** A schema repository under test, with a host database that never held plugin tables. */
export interface PluginSchemaFixture {
  repo: PluginSchemaRepository;
  close(): Promise<void>;
}

const schema = (migrations: PluginSchema['migrations']): PluginSchema => ({
  pluginId: 'notas',
  owner: 'plugin:notas',
  tablePrefix: 'notas_',
  migrations,
});
const FIRST = { id: '0001_notas', sql: 'CREATE TABLE notas_items (id INTEGER PRIMARY KEY, texto TEXT NOT NULL)' };
const SECOND = { id: '0002_fecha', sql: 'ALTER TABLE notas_items ADD COLUMN fecha TEXT' };

/** The behaviour every backend of the plugins' schemas must show. */
export function pluginSchemaRepositoryContract(name: string, make: () => Promise<PluginSchemaFixture>): void {
  const withRepo = contractCase(name, make);

  withRepo('a first install is not an upgrade; a migration added later is', async ({ repo }) => {
    assert.equal(await repo.holdsLegacyTables(schema([FIRST])), false);
    assert.equal(await repo.upgradePending(schema([FIRST])), false, 'nothing applied yet');
    assert.deepEqual(await repo.migrate(schema([FIRST])), { copied: [], dropped: [], applied: ['0001_notas'] });
    assert.equal(await repo.upgradePending(schema([FIRST])), false, 'nothing pending');
    assert.equal(await repo.upgradePending(schema([FIRST, SECOND])), true);
    assert.deepEqual((await repo.migrate(schema([FIRST, SECOND]))).applied, ['0002_fecha']);
    assert.deepEqual((await repo.migrate(schema([FIRST, SECOND]))).applied, [], 'applied once');
  });

  withRepo('an edited or unknown applied migration is refused before anything changes', async ({ repo }) => {
    await repo.migrate(schema([FIRST]));
    const edited = { ...FIRST, sql: `${FIRST.sql} -- cambiada` };
    await assert.rejects(repo.upgradePending(schema([edited, SECOND])), { code: 'MIGRATION_TAMPERED' });
    await assert.rejects(repo.migrate(schema([edited, SECOND])), { code: 'MIGRATION_TAMPERED' });
    await assert.rejects(repo.upgradePending(schema([])), { code: 'DATABASE_NEWER_THAN_CODE' });
    assert.deepEqual((await repo.migrate(schema([FIRST, SECOND]))).applied, ['0002_fecha'], 'SECOND still pending');
  });

  withRepo('an object outside the plugin prefix is refused', async ({ repo }) => {
    await assert.rejects(repo.migrate(schema([{ id: '0001_x', sql: 'CREATE TABLE ajena (id INTEGER)' }])));
  });
}
