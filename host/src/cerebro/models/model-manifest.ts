// The small JSON file `cerebro modelos instalar` leaves beside a model it installed: what the model is and how it
// expects its inputs (e5 wants "query: " / "passage: " prefixes), so the service uses it right without more settings.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const MANIFEST_FILE = 'cerebro-modelo.json';

export interface ModelManifest {
  kind: 'embeddings' | 'reordenacion';
  name: string;
  source: string;
  queryPrefix?: string;
  passagePrefix?: string;
  /** Vector size measured when it was installed (embeddings only). */
  dimensions?: number;
}

/** The manifest of a model directory, or null when the directory has none (a model copied by hand). */
export async function readManifest(dir: string): Promise<ModelManifest | null> {
  try {
    return JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as ModelManifest;
  } catch {
    return null;
  }
}
