import { loadHostConfig } from '../config/host-config.js';
import { describeOriginals } from '../config/originals-setting.js';
import { formatHuman, reportError, wantsHelp } from './cli-output.js';
import type { CliIo } from './run-cli.js';

export const CONFIG_USAGE = `Uso: cerebro config [--json]

  Muestra la configuración efectiva (variables CEREBRO_* del entorno con los valores por defecto del README),
  con los secretos ocultos: claves de API, contraseñas de las URL y toda variable de plugin cuyo nombre diga
  KEY, SECRET, TOKEN, PASSWORD o CLAVE.
`;

const MASK = '[oculto]';
const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD|PASS|CLAVE/i;

/** An URL's password (`https://user:pass@host`) hidden; any other text as it is. */
const maskUrlPassword = (value: string): string => value.replace(/(\/\/[^/:@\s]*):[^@/\s]*@/, `$1:${MASK}@`);
const maskSecret = (value: string): string => (value ? MASK : '');

/** The host's settings as read from `env`, secrets masked, and the plugin settings set in the environment. */
export function effectiveConfig(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const config = loadHostConfig(env);
  const host: Record<string, unknown> = {
    ...config,
    // The compiled matcher is not printable: the setting as written (default false).
    trustProxy: env.CEREBRO_TRUST_PROXY || 'false',
    llmUrl: maskUrlPassword(config.llmUrl),
    embeddingUrl: maskUrlPassword(config.embeddingUrl),
    rerankUrl: maskUrlPassword(config.rerankUrl),
    llmApiKey: maskSecret(config.llmApiKey),
    embeddingApiKey: maskSecret(config.embeddingApiKey),
    rerankApiKey: maskSecret(config.rerankApiKey),
    // Where originals live, without the S3 keys the setting carries.
    originals: describeOriginals(config.originals),
  };
  const hostVariables = new Set(['CEREBRO_LLM_API_KEY', 'CEREBRO_EMBEDDING_API_KEY', 'CEREBRO_RERANK_API_KEY']);
  const entorno = Object.fromEntries(
    Object.entries(env)
      .filter(([name, value]) => name.startsWith('CEREBRO_') && value !== undefined && !hostVariables.has(name))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, value]) => [
        name,
        SECRET_NAME.test(name.slice('CEREBRO_'.length)) ? maskSecret(value!) : maskUrlPassword(value!),
      ]),
  );
  return { ...host, entorno };
}

/** `cerebro config`. */
export function runConfig(args: string[], io: CliIo): number {
  if (wantsHelp(args)) {
    io.stdout.write(CONFIG_USAGE);
    return 0;
  }
  const json = args.includes('--json');
  const unknown = args.filter((a) => a !== '--json');
  if (unknown.length) {
    io.stderr.write(`Argumento desconocido: ${unknown[0]}\n\n${CONFIG_USAGE}`);
    return 2;
  }
  try {
    const shown = effectiveConfig(io.env);
    io.stdout.write(json ? `${JSON.stringify(shown, null, 2)}\n` : `${formatHuman(shown)}\n`);
    return 0;
  } catch (err) {
    reportError(io, json, err);
    return 1;
  }
}
