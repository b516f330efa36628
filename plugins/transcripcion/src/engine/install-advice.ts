// What to tell a caller and the operator when there is no usable Whisper model: it will not appear by itself, so
// the answer names the file to get and the command that installs it, and asks for no retry.
import { basename } from 'node:path';
import { isSea } from 'node:sea';
import { KNOWN_MODELS } from './installer.js';

/**
 * The command that installs a model from a local file, as the operator can type it: the single executable by its
 * own name; otherwise, in the Cerebro folder of a checkout, the root package.json's script that runs this plugin's
 * `instalar-modelo`. One place, so every message names the same one.
 */
export const INSTALL_COMMAND = isSea()
  ? // The executable's stub runs a cached runtime and names itself in CEREBRO_EXECUTABLE (scripts/binary/stub).
    `${basename(process.env.CEREBRO_EXECUTABLE ?? process.execPath)} transcripcion instalar-modelo`
  : 'npm run cerebro-transcripcion -- instalar-modelo';

/** The model file suggested first: `base` suits 2–4 cores. */
export const SUGGESTED_MODEL_FILE = KNOWN_MODELS.base!.file;

/** How to install a model; with `modelPath` (for the operator only) the command also names where it goes. */
function howToInstall(modelPath?: string): string {
  // Quoted for the shell when it has spaces: the command must work pasted as it is.
  const dest = modelPath
    ? ` --destino ${/[\s'"$`\\]/.test(modelPath) ? `'${modelPath.replace(/'/g, `'\\''`)}'` : modelPath}`
    : '';
  return (
    `consigue el archivo ${SUGGESTED_MODEL_FILE} de whisper.cpp (repositorio ggerganov/whisper.cpp en Hugging Face) ` +
    `e instálalo${isSea() ? '' : ' en la carpeta de Cerebro'} con «${INSTALL_COMMAND} /ruta/a/${SUGGESTED_MODEL_FILE}${dest}»; el servicio lo carga solo en unos segundos.`
  );
}

/** `detalle` of `motor_no_listo` while no model is installed (callers see no server path). */
export const NO_MODEL_DETAIL =
  `El motor de transcripción no tiene un modelo de Whisper instalado y no lo tendrá hasta que el operador lo instale ` +
  `(reintentar no sirve): ${howToInstall()}`;

/** `detalle` of `motor_no_listo` when the engine failed to start (a broken model, no ffmpeg): the reason is in health. */
export const FAILED_DETAIL =
  'El motor de transcripción no pudo arrancar y no lo hará solo (reintentar no sirve): el operador ve el motivo en ' +
  `GET /api/health; si el modelo está dañado, ${howToInstall()}`;

/** For the operator's health: why the engine is down and the exact command that installs a model where it reads. */
export function degradedReason(state: 'no_model' | 'failed', reason: string | null, modelPath: string): string {
  const why =
    reason ?? (state === 'no_model' ? 'No hay un modelo de Whisper instalado.' : 'El motor no pudo arrancar.');
  return `${why} Para instalar un modelo: ${howToInstall(modelPath)}`;
}
