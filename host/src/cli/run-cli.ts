import { HOST_VERSION } from '../main/version.js';
import { runAdmin } from './admin-command.js';
import { runConfig } from './config-command.js';
import { runModels } from './models-command.js';
import { runPlugins } from './plugins-command.js';
import { runServe } from './serve-command.js';

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** Where `--stdin` options read from (process.stdin by default). */
  stdin?: AsyncIterable<Buffer | string>;
}

export const USAGE = `Uso: cerebro <orden>

  serve                       Arranca el servicio (variables CEREBRO_* en el README).
  admin <recurso> <acción>    Administración de la plataforma sobre la base de datos de CEREBRO_DATA_DIR.
                              Añade --json para salida JSON. "cerebro admin --help" lista las acciones.
  config                      La configuración efectiva, con los secretos ocultos.
  modelos lista|instalar      Modelos de embeddings y de reordenación ("cerebro modelos --help").
  plugins list|add|remove     Plugins instalados en la carpeta de datos ("cerebro plugins --help").
  --version                   La versión de Cerebro.
  help, --help                Esta ayuda. Cada orden admite --help.
`;

/** Entry point of the `cerebro` executable; returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return runServe(rest, io);
    case 'admin':
      return runAdmin(rest, io);
    case 'modelos':
      return runModels(rest, io);
    case 'plugins':
      return runPlugins(rest, io);
    case 'config':
      return runConfig(rest, io);
    case '--version':
    case '-V':
    case 'version':
      io.stdout.write(`cerebro ${HOST_VERSION}\n`);
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.stdout.write(USAGE);
      return 0;
    default:
      io.stderr.write(`Orden desconocida: ${command}\n\n${USAGE}`);
      return 2;
  }
}
