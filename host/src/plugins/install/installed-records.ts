import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packagesRoot } from './plugin-folder.js';

/** What `cerebro plugins add` installed, by plugin id: how to list and remove it without importing it. */
export interface InstalledRecord {
  id: string;
  version: string;
  packageName: string;
  /** What the operator asked for (folder, .tgz or name[@range]). */
  source: string;
  integrity?: string;
  installedAt: string;
}

const recordsFile = (dataDir: string) => join(packagesRoot(dataDir), 'instalados.json');

export function readInstalled(dataDir: string): InstalledRecord[] {
  const file = recordsFile(dataDir);
  if (!existsSync(file)) return [];
  return JSON.parse(readFileSync(file, 'utf8')) as InstalledRecord[];
}

/** Replaces the list atomically (written aside, then renamed), so a crash never leaves half a file. */
export function writeInstalled(dataDir: string, records: InstalledRecord[]): void {
  const file = recordsFile(dataDir);
  writeFileSync(
    `${file}.tmp`,
    `${JSON.stringify(
      [...records].sort((a, b) => a.id.localeCompare(b.id)),
      null,
      2,
    )}\n`,
  );
  renameSync(`${file}.tmp`, file);
}
