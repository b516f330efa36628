import { join, resolve } from 'node:path';

/**
 * Where the plugin reads its Whisper model: `CEREBRO_TRANSCRIPCION_MODELO`, else `CEREBRO_WHISPER_MODEL`, else
 * `whisper.bin` in the plugin's data directory (`<CEREBRO_DATA_DIR>/plugins/transcripcion`). Shared by the plugin
 * and the install command so both always agree.
 */
export function pluginModelPath(configured: string, pluginDataDir: string): string {
  return resolve(configured || process.env.CEREBRO_WHISPER_MODEL || join(pluginDataDir, 'whisper.bin'));
}

/** The plugin data directory as the host derives it, for code running outside the host (the CLI). */
export const pluginDataDirFromEnv = (env: NodeJS.ProcessEnv = process.env): string =>
  join(resolve(env.CEREBRO_DATA_DIR ?? 'data'), 'plugins', 'transcripcion');
