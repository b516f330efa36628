// `cerebro plugins list|add|remove|nuevo`: installs plugin packages into the data directory without npm (the running
// service picks changes up on its next start), and writes a new plugin project.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadHostConfig } from '../config/host-config.js';
import { REPO_ROOT, discoveredSources } from '../main/start-host.js';
import { installPlugin, removePlugin } from '../plugins/install/install-plugin.js';
import { readInstalled } from '../plugins/install/installed-records.js';
import { DEFAULT_REGISTRY } from '../plugins/install/package-source.js';
import { KIT_FOLDER, newPluginProject } from '../plugins/scaffold/new-plugin-project.js';
import { programName } from './program-name.js';
import { storageEnvPrefix } from './storage-env-prefix.js';
import type { CliIo } from './run-cli.js';

export const PLUGINS_USAGE = `Uso: cerebro plugins <acción>

  list                          Plugins que cargaría el servicio: id, versión, estado y procedencia.
  add <nombre[@rango]|archivo.tgz|carpeta>
                                Instala un plugin en CEREBRO_DATA_DIR/plugins/paquetes (sin npm): lo descarga
                                del registro (CEREBRO_NPM_REGISTRY, por defecto ${DEFAULT_REGISTRY}) comprobando
                                su integridad, o lo copia; lo prueba en un proceso aparte y lo deja listo.
  remove <id>                   Quita un plugin instalado con add (sus datos se conservan).
  nuevo <id> [--destino CARPETA] [--sdk ARCHIVO.tgz] [--host ARCHIVO.tgz]
                                Escribe el proyecto de un plugin nuevo (manifiesto, código, pruebas con el kit
                                del sdk) en CARPETA (por defecto ./cerebro-plugin-<id>), que depende del sdk y
                                del host que "npm run build" empaqueta en ${KIT_FOLDER}/ del repositorio.

Los cambios se aplican al reiniciar el servicio.
`;

async function list(io: CliIo): Promise<number> {
  const config = loadHostConfig(io.env);
  const installed = new Map(readInstalled(config.dataDir).map((r) => [r.id, r]));
  const { sources, failed } = await discoveredSources(config);
  const from = (id: string, origin: string) => {
    const record = installed.get(id);
    return record ? `instalado desde ${record.source}` : origin;
  };
  const rows = [
    ...sources.map((s) => ({
      id: s.definition.manifest.id,
      version: s.definition.manifest.version,
      estado: 'disponible',
      procedencia: from(s.definition.manifest.id, s.origin),
    })),
    ...failed.map((f) => ({
      id: f.id,
      version: f.version,
      estado: 'fallido',
      procedencia: from(f.id, f.origin),
      error: f.error.message,
    })),
  ].sort((a, b) => a.id.localeCompare(b.id));
  for (const row of rows) {
    io.stdout.write(`${row.id.padEnd(20)} ${row.version.padEnd(10)} ${row.estado.padEnd(11)} ${row.procedencia}\n`);
    if ('error' in row) io.stdout.write(`${''.padEnd(20)} ${row.error}\n`);
  }
  return 0;
}

async function add(spec: string, io: CliIo): Promise<number> {
  const config = loadHostConfig(io.env);
  const installedIds = new Set(readInstalled(config.dataDir).map((r) => r.id));
  const { sources, failed } = await discoveredSources(config);
  const otherPluginIds = new Set(
    [...sources.map((s) => s.definition.manifest.id), ...failed.map((f) => f.id)].filter((id) => !installedIds.has(id)),
  );
  const record = await installPlugin({
    spec,
    dataDir: config.dataDir,
    registry: io.env.CEREBRO_NPM_REGISTRY || DEFAULT_REGISTRY,
    otherPluginIds,
    command: programName(io.env),
  });
  io.stdout.write(
    `Instalado ${record.id}@${record.version} (${record.packageName}). Reinicia el servicio para cargarlo ` +
      `y habilita el módulo en cada espacio que lo use con:\n  ${storageEnvPrefix(io.env, config.dataDir)}${programName(io.env)} admin space module --id <espacio> --module ${record.id} --on\n`,
  );
  return 0;
}

function scaffold(args: string[], io: CliIo): number {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { destino: { type: 'string' }, sdk: { type: 'string' }, host: { type: 'string' } },
  });
  if (positionals.length !== 1) throw new Error('indica un id: plugins nuevo <id>.');
  const id = positionals[0]!;
  const dir = newPluginProject({
    id,
    dir: values.destino ?? join(process.cwd(), `cerebro-plugin-${id}`),
    checkout: REPO_ROOT,
    ...(values.sdk ? { sdk: values.sdk } : {}),
    ...(values.host ? { host: values.host } : {}),
  });
  // `npx cerebro` resolves inside the checkout only, and there the server's default data folder is the checkout's.
  const program = programName(io.env);
  const cli = REPO_ROOT && /^np[mx] /.test(program) ? `cd ${resolve(REPO_ROOT)} && ${program}` : program;
  io.stdout.write(
    `Proyecto del plugin "${id}" escrito en ${dir}. Para compilarlo, probarlo, empaquetarlo e instalarlo:\n` +
      `  cd ${dir}\n  npm install && npm test && npm pack\n  ${cli} plugins add ${join(dir, `cerebro-plugin-${id}-0.1.0.tgz`)}\n`,
  );
  return 0;
}

/** `cerebro plugins …`; returns the exit code. */
export async function runPlugins(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  try {
    if (action === 'list' && rest.length === 0) return await list(io);
    if (action === 'add' && rest.length === 1) return await add(rest[0]!, io);
    if (action === 'nuevo') return scaffold(rest, io);
    if (action === 'remove' && rest.length === 1) {
      const record = removePlugin(loadHostConfig(io.env).dataDir, rest[0]!, programName(io.env));
      io.stdout.write(
        `Quitado ${record.id}@${record.version}. Sus datos siguen en la carpeta de datos; reinicia el servicio.\n`,
      );
      return 0;
    }
  } catch (err) {
    io.stderr.write(`Error: ${(err as Error).message}\n`);
    return 1;
  }
  io.stderr.write(PLUGINS_USAGE);
  return action === undefined || action === 'help' ? 0 : 2;
}
