// The originals store `CEREBRO_ARCHIVOS` names. The S3 driver is imported only when configured: the embedded start
// never loads it, and the single executable does not carry its library (scripts/binary/bundle.mjs).
import { stat } from 'node:fs/promises';
import type { OriginalsSetting } from '../../config/originals-setting.js';
import type { OriginalsStore } from '../port/originals-store.js';
import { FolderOriginalsStore } from './originals-store.js';
import { S3_NOT_INSTALLED } from './s3-not-installed.js';

export async function openOriginalsStore(setting: OriginalsSetting, dataDir: string): Promise<OriginalsStore> {
  if (setting.kind === 'carpeta') {
    // Never created here: a shared mount that is missing must stop the host, not fill a local folder of the same name.
    if (!(await stat(setting.dir).catch(() => null))?.isDirectory())
      throw new Error(`CEREBRO_ARCHIVOS: la carpeta ${setting.dir} no existe (¿está montada?).`);
    return new FolderOriginalsStore(setting.dir, 'carpeta');
  }
  if (setting.kind === 's3') {
    const { S3OriginalsStore } = await import('./s3/s3-originals-store.js').catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ERR_MODULE_NOT_FOUND') throw err;
      throw new Error(S3_NOT_INSTALLED);
    });
    return S3OriginalsStore.open(setting.location, setting.credentials, dataDir);
  }
  return new FolderOriginalsStore(dataDir);
}
