import { createHash, randomUUID } from 'node:crypto';

/** Originals live under this folder (or key prefix), one sub-folder per space. */
export const ORIGINALS_DIR = 'documentos';

/** A folder store's hidden half-written file ends so (`.<uuid>.parcial`, beside where the original will be). */
export const PARTIAL_SUFFIX = '.parcial';

/** A new stored name for an original of `space`: `documentos/<space hash>/<uuid>`, the same on every store. */
export function newStoredName(space: string): { folder: string; name: string; stored: string } {
  const folder = `${ORIGINALS_DIR}/${createHash('sha256').update(space).digest('hex').slice(0, 24)}`;
  const name = randomUUID();
  return { folder, name, stored: `${folder}/${name}` };
}
