import { announceFirstRun, bootstrapFirstRun, FIRST_RUN_STEP } from '../bootstrap/first-run.js';
import { startHost } from '../main/start-host.js';
import { installProcessSafetyNet } from '../main/process-safety-net.js';
import { wantsHelp } from './cli-output.js';
import { programName } from './program-name.js';
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
  // it runs and a half-made demo (an operator credential nobody was shown) would no longer count as a first run.
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
  // Hosts starting together on one PostgreSQL database set up the first run once, all of it or nothing.
  const firstRun = host.config.bootstrapDemo
    ? host.firstStart(FIRST_RUN_STEP, () => bootstrapFirstRun(host.admin, modules))
    : Promise.resolve(null);
  // The credentials file is part of the setup: a stop must not end the process between the rows and the file.
  setup = firstRun.then((first) => {
    if (first) {
      announceFirstRun(io.stderr, host.config.dataDir, host.url, first);
    } else {
      io.stderr.write(
        `\nCerebro escuchando en ${host.url}/api (OpenAPI: ${host.url}/api/openapi.json).\n` +
          `Crea una clave con: ${programName(io.env)} admin key create --owner <id> --name <nombre> ` +
          `(los propietarios: ${programName(io.env)} admin owner list).\n\n`,
      );
    }
  });
  await setup;
  await stopped;
  return 0;
}
