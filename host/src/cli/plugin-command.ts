// `cerebro <plugin id> …`: a plugin's own command line (`package.json#cerebro.cli`), such as transcripcion's Whisper
// model installer. Run through the host's CLI so it has one name everywhere: in a checkout, in a project that
// installed the host, and in the single executable, which has no other entry point.
import { spawn } from 'node:child_process';
import { loadHostConfig } from '../config/host-config.js';
import { discoveredCandidates } from '../main/start-host.js';
import { programName } from './program-name.js';
import type { CliIo } from './run-cli.js';

/** The command-line script of the plugin `id`, when an installed plugin with that id declares one. */
export function pluginCli(id: string, io: CliIo): string | undefined {
  return discoveredCandidates(loadHostConfig(io.env)).find((c) => c.declaredId === id && c.cli)?.cli;
}

/**
 * Runs `script` in a child process (the executable runs an absolute `.js` path as `node` would), with the terminal's
 * streams and the name to print in its usage (`CEREBRO_PLUGIN_COMMAND`); resolves with its exit code.
 */
export function runPluginCli(id: string, script: string, args: string[], io: CliIo): Promise<number> {
  const env = { ...io.env, CEREBRO_PLUGIN_COMMAND: `${programName(io.env)} ${id}` };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { env, stdio: ['inherit', 'pipe', 'pipe'] });
    child.stdout.pipe(io.stdout, { end: false });
    child.stderr.pipe(io.stderr, { end: false });
    child.on('error', (err) => {
      io.stderr.write(`No se pudo ejecutar la orden de ${id}: ${err.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
