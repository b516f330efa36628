import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { scratchBackend, testBackend } from '@cerebro/host/test-kit';

const CLI = fileURLToPath(new URL('../../../host/dist/cli/main.js', import.meta.url));

/** `cerebro serve` running as a real child process on a data directory. */
export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  /** Server root, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** What it printed on stderr up to the end of its start banner (the demo key on a first run). */
  banner: string;
  /** Kills with SIGKILL, as a crash would: no shutdown code runs. */
  crash(): Promise<void>;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** What it wrote on stdout so far (the log lines), when started with `captureStdout`. */
  stdout(): string;
}

export interface StartOptions {
  timeoutMs?: number;
  /** Runs `<executable> serve` (the single executable) instead of `node host/dist/cli/main.js serve`. */
  executable?: string;
  /** Only `env` and the defaults, not this process's environment (an installed copy: no PATH, no npm settings). */
  isolated?: boolean;
  cwd?: string;
  /** Keeps stdout (the JSON log lines) for `stdout()` instead of discarding it. */
  captureStdout?: boolean;
  /** Arguments after `serve` (e.g. `['--rol', 'api']`). */
  args?: string[];
}

/**
 * With CEREBRO_TEST_BACKEND=postgres, the PostgreSQL database (and Redis) of the processes started on one data
 * folder: processes of one folder share it, as they share the SQLite file otherwise. scripts/run-tests.mjs drops
 * these databases when the run ends (a server process outlives no test file, but a folder has no end of its own).
 */
const backendOfFolder = new Map<string, Promise<Record<string, string>>>();

/** What a process on `dataDir` needs to reach its backend (a `cerebro admin` beside the server): {} on SQLite. */
export function backendEnvOf(dataDir: string, env: Record<string, string> = {}): Promise<Record<string, string>> {
  if (testBackend() === 'sqlite' || env.CEREBRO_DATABASE_URL !== undefined) return Promise.resolve({});
  let chosen = backendOfFolder.get(dataDir);
  if (!chosen) backendOfFolder.set(dataDir, (chosen = scratchBackend().then((b) => b.env)));
  return chosen;
}

/** How long a start may take before the child is killed and the start fails: a hung start must not hang the suite. */
export const START_TIMEOUT_MS = 60_000;

/**
 * Starts `cerebro serve` and resolves once its banner (first run or not) is complete. Rejects, with what the
 * server printed, if it exits first or has not finished starting within `timeoutMs` (the child is then killed).
 */
export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<ServerProcess> {
  // The single executable is the embedded default and carries no PostgreSQL driver (see the README's configuration
  // table), so its tests stay on SQLite whatever the run's backend: in the PostgreSQL pass they are the LTS on SQLite.
  const backend = options.executable ? {} : await backendEnvOf(dataDir, env);
  const timeoutMs = options.timeoutMs ?? START_TIMEOUT_MS;
  const serve = ['serve', ...(options.args ?? [])];
  const [command, args] = options.executable ? [options.executable, serve] : [process.execPath, [CLI, ...serve]];
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: {
      ...(options.isolated ? {} : process.env),
      CEREBRO_DATA_DIR: dataDir,
      CEREBRO_PORT: '0',
      CEREBRO_LOG_LEVEL: 'warn',
      ...backend,
      ...env,
    },
    stdio: ['ignore', options.captureStdout ? 'pipe' : 'ignore', 'pipe'],
  });
  let stdout = '';
  child.stdout?.on('data', (d) => (stdout += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  return new Promise<ServerProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not finish starting within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.stderr!.on('data', (d) => {
      stderr += d;
      const url = /(http:\/\/127\.0\.0\.1:\d+)\/api/.exec(stderr)?.[1];
      if (!url || !/openapi\.json/.test(stderr)) return;
      clearTimeout(timer);
      resolve({
        child,
        pid: child.pid!,
        url,
        banner: stderr,
        crash: async () => {
          child.kill('SIGKILL');
          await exited;
        },
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
        stdout: () => stdout,
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${stderr}`));
    });
  });
}
