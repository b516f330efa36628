#!/usr/bin/env node
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { KNOWN_MODELS, installModel } from './engine/index.js';
import { pluginDataDirFromEnv, pluginModelPath } from './model-path.js';

// Run as `cerebro transcripcion …` the host passes the name it was called by; run directly, it is this package's bin.
const COMMAND = process.env.CEREBRO_PLUGIN_COMMAND ?? 'cerebro-transcripcion';

const USAGE = `Uso: ${COMMAND} instalar-modelo <nombre|ruta|url> [--sha1 HEX] [--destino RUTA]

  <nombre>  uno de: ${Object.keys(KNOWN_MODELS).join(', ')} (se descarga de CEREBRO_WHISPER_MODEL_URL y se comprueba su SHA-1)
  <ruta>    un archivo ggml local (sin internet: copia el archivo a la máquina e instálalo desde aquí)
  <url>     un archivo ggml por http(s); con --sha1 se comprueba

El modelo queda donde el servicio lo lee (CEREBRO_TRANSCRIPCION_MODELO, o <CEREBRO_DATA_DIR>/plugins/transcripcion/whisper.bin);
un servicio en marcha lo carga solo en unos segundos. Ejemplo: ${COMMAND} instalar-modelo base
`;

/**
 * A local file is named relative to where the operator typed the command: `npm run` moves to the package's folder
 * but keeps that place in INIT_CWD.
 */
function localOrUrl(source: string): string {
  return /^https?:\/\//i.test(source) ? source : resolve(process.env.INIT_CWD ?? process.cwd(), source);
}

/** `cerebro transcripcion instalar-modelo` (or `cerebro-transcripcion …`): installs and validates a Whisper model where the plugin reads it. */
async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { sha1: { type: 'string' }, destino: { type: 'string' }, help: { type: 'boolean' } },
    });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command, what] = parsed.positionals;
  if (parsed.values.help || command !== 'instalar-modelo' || !what) {
    (parsed.values.help ? process.stdout : process.stderr).write(USAGE);
    return parsed.values.help ? 0 : 2;
  }
  const dest =
    parsed.values.destino ?? pluginModelPath(process.env.CEREBRO_TRANSCRIPCION_MODELO ?? '', pluginDataDirFromEnv());
  try {
    const installed = await installModel({
      ...(what in KNOWN_MODELS ? { name: what } : { source: localOrUrl(what) }),
      ...(parsed.values.sha1 ? { sha1: parsed.values.sha1 } : {}),
      dest,
      onProgress: (received, total) => {
        if (process.stderr.isTTY)
          process.stderr.write(
            `\r${(received / 1048576).toFixed(0)} MB${total ? ` de ${(total / 1048576).toFixed(0)} MB` : ''}`,
          );
      },
    });
    process.stdout.write(
      `Modelo instalado en ${installed.path} (${(installed.sizeBytes / 1048576).toFixed(0)} MB, SHA-1 ${installed.sha1}).\n`,
    );
    return 0;
  } catch (err) {
    process.stderr.write(`No se pudo instalar el modelo: ${(err as Error).message}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
