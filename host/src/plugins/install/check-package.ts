import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface CheckedPlugin {
  id: string;
  version: string;
}

const CHILD = fileURLToPath(new URL('./check-package-child.js', import.meta.url));
const CHECK_TIMEOUT_MS = 60_000;

/**
 * Imports the plugin package in `dir` in a child Node process and validates it (entry module, default export,
 * manifest, sdk range against this host). Rejects with the reason when it is not a loadable plugin.
 */
export function checkPluginPackage(dir: string): Promise<CheckedPlugin> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CHILD, dir], { timeout: CHECK_TIMEOUT_MS, maxBuffer: 1 << 20 }, (err, stdout) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      let parsed: Partial<CheckedPlugin> & { error?: string };
      try {
        parsed = JSON.parse(line) as typeof parsed;
      } catch {
        reject(
          new Error(
            err?.killed
              ? `la comprobación no terminó en ${CHECK_TIMEOUT_MS / 1000} s.`
              : `la comprobación falló: ${err?.message ?? 'sin respuesta'}`,
          ),
        );
        return;
      }
      if (parsed.error !== undefined || !parsed.id || !parsed.version)
        reject(new Error(parsed.error ?? 'respuesta incompleta de la comprobación.'));
      else resolve({ id: parsed.id, version: parsed.version });
    });
  });
}
