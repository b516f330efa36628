// `cerebro admin respaldo` copies SQLite files; with the data in PostgreSQL the server's own tools take a consistent
// backup while hosts keep running, so the command tells the operator how instead of failing.

export interface PgBackupAdvice {
  postgresql: true;
  /** What to run to take the backup (the database's URL without its password). */
  respaldo: string[];
  /** What to run to restore it into a new, empty database. */
  restaurar: string[];
  nota: string;
}

/** `s` as one shell word. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** PostgreSQL's longest name, in bytes. */
const MAX_NAME_BYTES = 63;

/** `<database>_restaurada`, cut to PostgreSQL's 63 bytes without splitting a character. */
export function restoredDatabaseName(database: string): string {
  const suffix = '_restaurada';
  let base = database;
  while (Buffer.byteLength(base + suffix) > MAX_NAME_BYTES) base = [...base].slice(0, -1).join('');
  return base + suffix;
}

/**
 * The pg_dump / pg_restore lines for the database at `databaseUrl`, writing into `target` (a new folder), and
 * restoring into a new database `<database>_restaurada` on the same server. One command per line, each runnable as
 * printed: the URL goes without its password, which libpq takes from PGPASSWORD or ~/.pgpass (or asks for).
 * `--no-owner --no-acl`: the restored objects are the restoring user's (the host's), and grants to the old
 * database's plugin roles are not carried over; the host hands each plugin's schema to that plugin's role for the
 * new database at its first start (pg-plugin-schema-handover.ts).
 */
export function pgBackupAdvice(databaseUrl: string, target: string): PgBackupAdvice {
  const source = new URL(databaseUrl);
  source.password = '';
  const database = decodeURIComponent(source.pathname.slice(1));
  const restoredName = restoredDatabaseName(database);
  const restored = new URL(source.toString());
  restored.pathname = `/${encodeURIComponent(restoredName)}`;
  const dump = shellQuote(`${target.replace(/\/+$/, '')}/cerebro.dump`);
  return {
    postgresql: true,
    respaldo: [
      `mkdir -p ${shellQuote(target)}`,
      `pg_dump --format=custom --file=${dump} ${shellQuote(source.toString())}`,
    ],
    restaurar: [
      `createdb --maintenance-db=${shellQuote(source.toString())} ${shellQuote(restoredName)}`,
      `pg_restore --no-owner --no-acl --exit-on-error --dbname=${shellQuote(restored.toString())} ${dump}`,
    ],
    nota:
      'Con CEREBRO_DATABASE_URL los datos están en PostgreSQL y este comando no los copia: respáldalos con pg_dump ' +
      '(en línea, sin parar los hosts). La contraseña no se muestra: pásala con PGPASSWORD o ~/.pgpass. ' +
      `«restaurar» crea la base de datos nueva ${restoredName} en el mismo servidor y restaura en ella el respaldo; ` +
      'el primer host que arranque sobre ella con ese mismo usuario devuelve a cada plugin sus tablas. Los originales de los ' +
      'documentos y los archivos de los plugins siguen en CEREBRO_DATA_DIR: cópialos aparte.',
  };
}
