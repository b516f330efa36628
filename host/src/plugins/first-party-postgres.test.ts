// The first-party plugins ship PostgreSQL twins of their migrations: applied in each plugin's schema they give the
// tables and columns the SQLite ones give (plus `rowid`, which SQLite has implicitly), and the stores' SQL that
// orders by `rowid` keeps insertion order there.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import type { PluginDefinition } from '@cerebro/sdk';
import { applyMigrations } from '../storage/migrator.js';
import { tablePrefixOf } from '../storage/plugin-storage.js';
import { applyPgMigrations } from '../storage/postgres/pg-migrator.js';
import { pluginSchemasDatabase } from '../storage/postgres/testing/plugin-schemas-database.js';
import { pgUnavailable } from '../storage/postgres/testing/pg-test-database.js';

const skip = (await pgUnavailable()) ?? false;
const FIRST_PARTY = ['marca', 'landing', 'ventas', 'fuentes'];

/** Loaded by package name, as discovery finds them (the host does not depend on its plugins at build time). */
async function definition(id: string): Promise<PluginDefinition> {
  const specifier = `@cerebro/plugin-${id}`;
  return ((await import(specifier)) as { default: PluginDefinition }).default;
}

function sqliteColumns(definition: PluginDefinition): Record<string, string[]> {
  const db = new Database(':memory:');
  const { id, migrations = [] } = definition.manifest;
  applyMigrations(db, { owner: `plugin:${id}`, migrations, tablePrefix: tablePrefixOf(id) });
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'cerebro_migrations'")
    .pluck()
    .all() as string[];
  const columns = Object.fromEntries(
    tables.map((t) => [
      t,
      (db.prepare(`PRAGMA table_info(${t})`).all() as { name: string }[]).map((c) => c.name).sort(),
    ]),
  );
  db.close();
  return columns;
}

describe('first-party plugins on PostgreSQL', { skip }, () => {
  test('each declares PostgreSQL migrations whose tables and columns are its SQLite ones', async (t) => {
    const db = await pluginSchemasDatabase();
    t.after(db.close);
    const schemas = db.schemas;
    for (const id of FIRST_PARTY) {
      const plugin = await definition(id);
      const { migrations = [], postgresMigrations } = plugin.manifest;
      assert.ok(postgresMigrations, `${id} declares postgresMigrations`);
      assert.deepEqual(
        postgresMigrations.map((m) => m.id),
        migrations.map((m) => m.id),
      );
      const pool = await schemas.pool(id);
      await applyPgMigrations(pool, [
        { owner: `plugin:${id}`, migrations: postgresMigrations, tablePrefix: tablePrefixOf(id) },
      ]);
      const rows = await db.host.query<{ table_name: string; column_name: string }>(
        `SELECT table_name, column_name FROM information_schema.columns
         WHERE table_schema = $1 AND table_name <> 'cerebro_migrations' AND column_name <> 'rowid'`,
        [`plugin_${id}`],
      );
      const got: Record<string, string[]> = {};
      for (const r of rows.rows) (got[r.table_name] ??= []).push(r.column_name);
      for (const columns of Object.values(got)) columns.sort();
      assert.deepEqual(got, sqliteColumns(plugin), `${id}: the same tables and columns`);
    }
    // The stores' `ORDER BY …, rowid DESC` (fuentes' latest run of a source) is insertion order on PostgreSQL too.
    const fuentes = await schemas.database('fuentes');
    for (const run of ['primera', 'segunda']) {
      await fuentes.execute(
        "INSERT INTO fuentes_runs (space_id, id, source_id, state, trigger, counts, errors, created_at) VALUES (?, ?, ?, 'en_cola', 'manual', '{}', '[]', ?)",
        ['esp', run, 'fuente', '2026-03-01T10:00:00.000Z'],
      );
    }
    assert.deepEqual(
      await fuentes.queryOne(
        'SELECT id FROM fuentes_runs WHERE space_id = ? AND source_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
        ['esp', 'fuente'],
      ),
      { id: 'segunda' },
    );
  });

  test("landing's publications, counts and leads run their SQL on PostgreSQL as on SQLite", async (t) => {
    const db = await pluginSchemasDatabase();
    t.after(db.close);
    const plugin = await definition('landing');
    await applyPgMigrations(await db.schemas.pool('landing'), [
      { owner: 'plugin:landing', migrations: plugin.manifest.postgresMigrations ?? [], tablePrefix: 'landing_' },
    ]);
    const landing = await db.schemas.database('landing');
    const clock = { now: () => Date.parse('2026-11-27T10:00:00.000Z') };
    // Loaded from the built package, as the plugin itself is (the host does not depend on it at build time).
    const stores = (path: string) => import(`@cerebro/plugin-landing/dist/store/${path}`);
    const { PublicationStore } = await stores('publication-store.js');
    const { LeadStore } = await stores('lead-store.js');
    const publications = new PublicationStore(landing, clock);
    const first = await publications.publish('esp', 'lnd_1', 1, true);
    assert.equal(first.created, true);
    const again = await publications.publish('esp', 'lnd_1', 2, false);
    assert.deepEqual(
      [again.created, again.publication.token, again.publication.numero, again.publication.formulario],
      [false, first.publication.token, 2, false],
    );
    assert.equal((await publications.byToken('esp', first.publication.token))?.landingId, 'lnd_1');
    await Promise.all([publications.countView('esp', 'lnd_1'), publications.countView('esp', 'lnd_1')]);
    await publications.countClick('esp', 'lnd_1');
    assert.deepEqual(await publications.stats('esp', 'lnd_1'), { vistas: 2, clics: 1 });
    assert.equal(await publications.unpublish('esp', 'lnd_1'), true);
    assert.equal(await publications.byToken('esp', first.publication.token), null);
    const leads = new LeadStore(landing, clock);
    await leads.add('esp', {
      landing: 'lnd_1',
      version: 2,
      nombre: 'Ana',
      contacto: 'ana@example.com',
      mensaje: '',
      conversacion: null,
    });
    const page = await leads.page('esp', 'lnd_1', 10, 0);
    assert.deepEqual([page.total, page.leads[0].nombre, page.leads[0].version], [1, 'Ana', 2]);
    await publications.forget('esp', 'lnd_1');
    await leads.forget('esp', 'lnd_1');
    assert.deepEqual(
      [await leads.count('esp', 'lnd_1'), await publications.stats('esp', 'lnd_1')],
      [0, { vistas: 0, clics: 0 }],
    );
  });
});
