import { basename, delimiter, dirname } from 'node:path';
import { isSea } from 'node:sea';

/**
 * How the person reading a hint runs this CLI again, so every command a message names works as written: the
 * single executable by its own name (its path when its folder is not on the PATH); otherwise (a checkout, or the
 * package installed in a project) the `cerebro` bin that `npm install` links, run with `npx`, or the root script
 * when that is what was used (`npm run cerebro -- …`). A bare `cerebro` is on no PATH in a checkout.
 */
export function programName(env: NodeJS.ProcessEnv): string {
  if (isSea()) {
    // The executable's stub runs a cached copy of the runtime (process.execPath) and names itself here.
    const executable = env.CEREBRO_EXECUTABLE ?? process.execPath;
    const onPath = (env.PATH ?? '').split(delimiter).includes(dirname(executable));
    return onPath ? basename(executable) : executable;
  }
  return env.npm_lifecycle_event === 'cerebro' ? 'npm run cerebro --' : 'npx cerebro';
}
