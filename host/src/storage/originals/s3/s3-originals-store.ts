// Originals in an S3-compatible store (`CEREBRO_ARCHIVOS=s3://…`): object `<prefix>documentos/<space hash>/<uuid>`,
// the same stored name the database records for the data folder. An object appears whole or not at all (S3 makes a
// PUT visible only once complete); bodies stream from the upload's file (one PUT, up to S3's 5 GiB limit per
// object, far above the upload limit). Indexing reads a file: the object is downloaded into this process's temporary
// folder and removed after. A replaced or removed version is deleted at once: `cerebro admin respaldo` does not copy
// this store, the bucket's own versioning or replication keeps older versions for backups.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { S3Credentials, S3Location } from '../../../config/originals-setting.js';
import type { LocalOriginal, OriginalReader, OriginalsStore, UnfinishedSwept } from '../../port/originals-store.js';
import { processTempDir } from '../../process-temp-dir.js';
import { S3_NOT_INSTALLED } from '../s3-not-installed.js';
import { storageFailureOf } from '../../storage-failure.js';
import { newStoredName } from '../stored-name.js';
import { S3Client } from './s3-client.js';

async function loadAws4(): Promise<typeof import('aws4')> {
  try {
    return (await import('aws4')).default;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') throw new Error(S3_NOT_INSTALLED);
    throw err;
  }
}

export class S3OriginalsStore implements OriginalsStore {
  readonly kind = 's3' as const;

  private constructor(
    private readonly client: S3Client,
    private readonly prefix: string,
    /** Where this process's temporary copies go (`<data>/tmp/<pid>-<start>/originales`). */
    private readonly tempDir: string,
  ) {}

  static async open(location: S3Location, credentials: S3Credentials, dataDir: string): Promise<S3OriginalsStore> {
    const client = new S3Client(await loadAws4(), location, credentials);
    // A wrong bucket or keys is a setting to fix: the host does not start. A store that does not answer yet may come
    // back (requests meanwhile answer 503): that is left to them.
    const status = await client.bucketStatus().catch((err: unknown) => {
      if (storageFailureOf(err)?.kind === 'unavailable') return 0;
      throw err;
    });
    if (status === 404 || status === 403)
      throw new Error(
        `CEREBRO_ARCHIVOS: ${status === 404 ? `el cubo "${location.bucket}" no existe en ${location.endpoint}` : `las claves no dan acceso al cubo "${location.bucket}" en ${location.endpoint}`} (revisa la dirección y CEREBRO_ARCHIVOS_ACCESS_KEY / CEREBRO_ARCHIVOS_SECRET_KEY).`,
      );
    return new S3OriginalsStore(client, location.prefix, join(processTempDir(dataDir), 'originales'));
  }

  private key(stored: string): string {
    return `${this.prefix}${stored}`;
  }

  async putFile(space: string, file: string): Promise<string> {
    const { stored } = newStoredName(space);
    const { size } = await stat(file);
    await this.client.put(this.key(stored), createReadStream(file), size);
    await rm(file, { force: true });
    return stored;
  }

  async putBytes(space: string, content: Uint8Array): Promise<string> {
    const { stored } = newStoredName(space);
    await this.client.put(this.key(stored), content, content.byteLength);
    return stored;
  }

  async read(stored: string): Promise<OriginalReader | null> {
    return this.client.get(this.key(stored));
  }

  async local(stored: string): Promise<LocalOriginal> {
    const found = await this.client.get(this.key(stored));
    if (!found) throw Object.assign(new Error('el original no está en el almacén S3'), { code: 'ENOENT' });
    await mkdir(this.tempDir, { recursive: true });
    const path = join(this.tempDir, randomUUID());
    const release = () => rm(path, { force: true });
    try {
      await pipeline(found.stream, createWriteStream(path));
    } catch (err) {
      await release();
      throw err;
    }
    return { path, release };
  }

  async discard(stored: string): Promise<void> {
    await this.client.delete(this.key(stored));
  }

  async retire(stored: string): Promise<void> {
    await this.client.delete(this.key(stored));
  }

  /** Nothing waits: a retired object is deleted when retired. */
  async purgeRetired(): Promise<number> {
    return 0;
  }

  /**
   * Nothing. An object appears whole or not at all (one PUT), so no write leaves half of one behind; but a process
   * killed between the PUT and recording its document leaves a whole object no document names, and it stays. Finding
   * those means listing the bucket (ListObjectsV2: a paged XML answer, a thousand keys a request), which this client
   * does not do; and a bucket lifecycle rule cannot tell them apart (it expires by age, prefix or tag, and would take
   * the named originals with them). They cost only space, one object per crash mid-upload: a sweep that lists the
   * prefix and asks `names` as the folder store does is what would remove them.
   */
  async sweepUnfinished(): Promise<UnfinishedSwept> {
    return { halves: 0, unnamed: 0 };
  }
}
