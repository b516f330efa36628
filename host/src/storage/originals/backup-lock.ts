// While `cerebro admin respaldo` runs, replaced and removed originals must stay on disk: the database snapshot it
// took may still name them. A backup marks itself with a file named after its process (`<pid>-<start stamp>`, as
// the per-process temporary folders) in the retired originals' folder; the purge of retired originals leaves
// everything in place while a marker of a live process exists. A backup killed with SIGKILL leaves a marker of a
// dead process, which counts for nothing and is removed by the next purge.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, stampOfThisProcess } from '../process-temp-dir.js';

/** Retired originals (replaced or removed documents) wait here, under their stored relative path. */
export const RETIRED_DIR = 'documentos-retirados';

const MARKER = /^\.respaldo-(\d+)-(\d+)$/;

const markerFile = (dataDir: string): string =>
  join(dataDir, RETIRED_DIR, `.respaldo-${process.pid}-${stampOfThisProcess()}`);

/** Marks a backup of `dataDir` as running in this process; call the returned function when it ends. */
export function holdBackupMarker(dataDir: string): () => void {
  const file = markerFile(dataDir);
  mkdirSync(join(dataDir, RETIRED_DIR), { recursive: true });
  writeFileSync(file, `${new Date().toISOString()}\n`);
  return () => rmSync(file, { force: true });
}

/** Whether a live process is backing up `dataDir`; markers of dead processes are removed on the way. */
export function backupRunning(dataDir: string): boolean {
  let names: string[];
  try {
    names = readdirSync(join(dataDir, RETIRED_DIR));
  } catch {
    return false;
  }
  let running = false;
  for (const name of names) {
    const marker = MARKER.exec(name);
    if (!marker) continue;
    if (isAlive(Number(marker[1]), marker[2]!)) running = true;
    else rmSync(join(dataDir, RETIRED_DIR, name), { force: true });
  }
  return running;
}
