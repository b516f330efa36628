import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** `npm pack` of a folder of this repository (e.g. `sdk`, `examples/hola-plugin`) into `destination`; the .tgz path. */
export async function npmPack(dir: string, destination: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    'npm',
    ['pack', '--json', '--pack-destination', destination, join(ROOT, dir)],
    { cwd: ROOT },
  );
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  return join(destination, packed!.filename);
}
