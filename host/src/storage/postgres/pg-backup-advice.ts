// `cerebro admin respaldo` copies SQLite files; with the data in PostgreSQL the server's own tools take a consistent
// backup while hosts keep running, so the command tells the operator how instead of failing.
import { redactUrl } from '../../config/backend-urls.js';

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

/** The pg_dump / pg_restore lines for the database at `databaseUrl`, writing into `target` (a new folder). */
export function pgBackupAdvice(databaseUrl: string, target: string): PgBackupAdvice {
  const url = shellQuote(redactUrl(databaseUrl));
  const dump = shellQuote(`${target.replace(/\/+$/, '')}/cerebro.dump`);
  return {
    postgresql: true,
    respaldo: [`mkdir -p ${shellQuote(target)}`, `pg_dump --format=custom --no-owner --file=${dump} ${url}`],
    restaurar: [
      'createdb cerebro_restaurada',
      `pg_restore --no-owner --exit-on-error --dbname=postgres://…/cerebro_restaurada ${dump}`,
    ],
    nota:
      'Con CEREBRO_DATABASE_URL los datos están en PostgreSQL y este comando no los copia: respáldalos con pg_dump ' +
      '(en línea, sin parar los hosts). La contraseña no se muestra: pásala con PGPASSWORD o ~/.pgpass. Los ' +
      'originales de los documentos y los archivos de los plugins siguen en CEREBRO_DATA_DIR: cópialos aparte.',
  };
}
