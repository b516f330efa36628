import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
}

/** Starts `cerebro serve` and resolves once its banner (first run or not) is complete. */
export function startServer(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...process.env, CEREBRO_DATA_DIR: dataDir, CEREBRO_PORT: '0', CEREBRO_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  return new Promise<ServerProcess>((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      stderr += d;
      const url = /(http:\/\/127\.0\.0\.1:\d+)\/api/.exec(stderr)?.[1];
      if (!url || !/openapi\.json/.test(stderr)) return;
      resolve({
        child, pid: child.pid!, url, banner: stderr,
        crash: async () => { child.kill('SIGKILL'); await exited; },
        stop: () => { child.kill('SIGTERM'); return exited; },
      });
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}
