// `cerebro admin respaldo` copies originals from a folder; with the originals in an S3-compatible store the store's
// own versioning and replication keep them, so the command tells the operator how instead of failing.
import type { S3Location } from '../../config/originals-setting.js';
import { type PgBackupAdvice, pgBackupAdvice, shellQuote } from '../postgres/pg-backup-advice.js';

export interface S3BackupAdvice {
  s3: true;
  /** What to run once so the bucket keeps every version of every original (MinIO's `mc` and the AWS CLI). */
  originales: string[];
  /** How to back up the databases: pg_dump with PostgreSQL, SQLite's online `.backup` otherwise. */
  bases: PgBackupAdvice | string[];
  nota: string;
}

export function s3BackupAdvice(
  location: S3Location,
  databaseUrl: string | null,
  dataDir: string,
  target: string,
): S3BackupAdvice {
  const bucket = location.bucket;
  return {
    s3: true,
    originales: [
      `mc version enable <alias>/${bucket}`,
      `aws s3api put-bucket-versioning --bucket ${bucket} --versioning-configuration Status=Enabled --endpoint-url ${location.endpoint}`,
      `mc replicate add <alias>/${bucket} --remote-bucket <destino>   (o la replicación del proveedor)`,
    ],
    bases: databaseUrl
      ? pgBackupAdvice(databaseUrl, target)
      : [
          `mkdir -p ${shellQuote(target)}`,
          `sqlite3 ${shellQuote(`${dataDir}/cerebro.db`)} ${shellQuote(`.backup "${target}/cerebro.db"`)}`,
        ],
    nota:
      `Con CEREBRO_ARCHIVOS=s3://${bucket}/${location.prefix} los originales están en el almacén S3 y este comando no ` +
      'los copia: activa el versionado del cubo (un original retirado sigue como versión anterior) y, si quieres una ' +
      'copia en otro sitio, su replicación. Un respaldo de las bases de datos nombra originales por su clave: ' +
      'restaurado, encuentra sus versiones en el cubo versionado.',
  };
}
