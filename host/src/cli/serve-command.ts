import { announceFirstRun } from '../bootstrap/first-run.js';
import { firstRunTestPause, unsavedFirstRunFile, setUpFirstRun } from '../bootstrap/first-run-setup.js';
import { startHost } from '../main/start-host.js';
import { installProcessSafetyNet } from '../main/process-safety-net.js';
import { wantsHelp } from './cli-output.js';
import { programName } from './program-name.js';
import { storageEnvPrefix } from './storage-env-prefix.js';
import type { CliIo } from './run-cli.js';
import { isProcessRole, PROCESS_ROLES, type ProcessRole } from '../config/process-role.js';

export const SERVE_USAGE = `Uso: cerebro serve [--rol todo|api|worker]

  Arranca el servicio HTTP con la configuración de las variables CEREBRO_* (ver "cerebro config" y el README).
  En el primer arranque con la base de datos vacía crea un propietario, un espacio y credenciales de prueba
  (CEREBRO_BOOTSTRAP_DEMO). Se detiene con Ctrl-C o SIGTERM, dejando terminar las peticiones en curso.

  --rol   Qué hace este proceso si varios comparten la carpeta de datos: todo (por defecto) atiende HTTP e
          indexa; api atiende HTTP y nunca indexa; worker indexa lo que dejan los procesos api.
`;

/** `--rol <x>` / `--rol=<x>`; the rest of the arguments are unknown. */
function parseServeArgs(args: string[]): { role: ProcessRole } | { error: string } {
  let role: ProcessRole = 'todo';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = arg === '--rol' ? args[++i] : arg.startsWith('--rol=') ? arg.slice('--rol='.length) : null;
    if (value === null) return { error: `Argumento desconocido: ${arg}` };
    if (value === undefined || !isProcessRole(value))
      return { error: `Rol no válido: ${value ?? '(falta)'}; usa ${PROCESS_ROLES.join(', ')}.` };
    role = value;
  }
  return { role };
}

/** `cerebro serve`: starts the host, bootstraps an empty database, and stops gracefully on SIGINT/SIGTERM. */
export async function runServe(args: string[], io: CliIo): Promise<number> {
  if (wantsHelp(args)) {
    io.stdout.write(SERVE_USAGE);
    return 0;
  }
  const parsed = parseServeArgs(args);
  if ('error' in parsed) {
    io.stderr.write(`${parsed.error}\n\n${SERVE_USAGE}`);
    return 2;
  }
  let host;
  try {
    host = await startHost({ env: io.env, config: { role: parsed.role } });
  } catch (err) {
    io.stderr.write(`Cerebro no pudo arrancar: ${(err as Error).message}\n`);
    return 1;
  }
  installProcessSafetyNet(host.log);
  // The first run's setup, once it has begun: a stop waits for it, since the server already answers /api/ready while
  // it runs. (A stop that closed the database under it would only roll it back: the next start would set it up.)
  let setup: Promise<unknown> = Promise.resolve();
  // Signal handlers first: whoever reads the banner may stop the service at once.
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      host.log.info({ signal }, 'deteniendo Cerebro');
      void setup
        .catch(() => undefined)
        .then(() => host.close())
        .then(resolve);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  const modules = host.plugins.filter((p) => p.state === 'activo').map((p) => p.manifest.id);
  // The rows and the credentials file in one unit, once for the hosts starting together: all of it or nothing,
  // whenever the process dies.
  const firstRun = host.config.bootstrapDemo
    ? setUpFirstRun(host, modules, firstRunTestPause(io.env, io.stderr))
    : Promise.resolve(null);
  setup = firstRun.then(async (first) => {
    if (first) {
      announceFirstRun(io.stderr, first.file, host.url, first.result);
    } else {
      const unsaved = host.config.bootstrapDemo ? await unsavedFirstRunFile(host.admin, host.config.dataDir) : null;
      if (unsaved) {
        host.log.warn({ archivo: unsaved }, 'el archivo del primer arranque nombra credenciales que no existen aquí');
        io.stderr.write(
          `\nAviso: ${unsaved} nombra credenciales que esta base de datos no tiene (de un primer arranque que se ` +
            'detuvo antes de guardarlas, o de otra base de datos): aquí no sirven. Bórralo.\n',
        );
      }
      const admin = `${storageEnvPrefix(io.env, host.config.dataDir)}${programName(io.env)} admin`;
      io.stderr.write(
        `\nCerebro escuchando en ${host.url}/api (OpenAPI: ${host.url}/api/openapi.json).\n` +
          `Crea una clave con: ${admin} key create --owner <id> --name <nombre> ` +
          `(los propietarios: ${admin} owner list).\n\n`,
      );
    }
  });
  await setup;
  await stopped;
  return 0;
}
