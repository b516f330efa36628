// Plugin ids the host keeps for itself: names of its paths, and every id whose table prefix (`<id>_`) begins the
// name of a host table, index or trigger. Such a plugin's migrations could not be told from host objects, and the
// upgrade that moves a plugin's tables out of cerebro.db (legacy-plugin-tables.ts) would take host tables with them
// (a plugin "space" would take `space_modules`). The table names come from the host's own migrations, so a table
// added later is covered without editing a list.
import { HOST_MIGRATIONS } from '../storage/migrations/index.js';
import { touchedObjects } from '../storage/migrator.js';
import { tablePrefixOf } from '../storage/plugin-storage.js';

/** Ids that would clash with host paths or names. */
const RESERVED_IDS = new Set([
  'api',
  'admin',
  'host',
  'core',
  'cerebro',
  'rag',
  'mod',
  'tokens',
  'companies',
  'cuentas',
  'paquetes',
]);

/** Every object name the host's migrations create, lower-cased. */
const HOST_OBJECTS: readonly string[] = [
  ...new Set(HOST_MIGRATIONS.flatMap((m) => touchedObjects(m.sql).map((n) => n.toLowerCase()))),
];

/**
 * Why `id` is reserved, in Spanish, or null when it is free. A name followed by `_` is compared too, so that an
 * FTS table's shadow tables (`<name>_data`, …) and an id equal to a table name are covered.
 */
export function reservedIdReason(id: string): string | null {
  if (RESERVED_IDS.has(id)) return `el id "${id}" está reservado por el host.`;
  const prefix = tablePrefixOf(id);
  const table = HOST_OBJECTS.find((name) => `${name}_`.startsWith(prefix));
  return table
    ? `el id "${id}" está reservado por el host: su prefijo de tablas "${prefix}" coincide con la tabla del host "${table}".`
    : null;
}
