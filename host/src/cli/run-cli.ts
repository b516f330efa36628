import { HOST_VERSION } from '../main/version.js';
import { runAdmin } from './admin-command.js';
import { runConfig } from './config-command.js';
import { runModels } from './models-command.js';
import { pluginCli, runPluginCli } from './plugin-command.js';
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
  plugins list|add|remove|nuevo
                              Plugins instalados en la carpeta de datos, y el esqueleto de uno nuevo
                              ("cerebro plugins --help").
  <id de plugin> …            La orden propia de un plugin, p. ej. "cerebro transcripcion instalar-modelo base".
  --version                   La versión de Cerebro.
  help, --help                Esta ayuda. Cada orden admite --help.

En una copia del repositorio la orden es "npx cerebro …" (o "npm run cerebro -- …"); el ejecutable, por su nombre.
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
    default: {
      const script = pluginCli(command, io);
      if (script) return runPluginCli(command, script, rest, io);
      io.stderr.write(`Orden desconocida: ${command}\n\n${USAGE}`);
      return 2;
    }
  }
}
