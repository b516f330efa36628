/**
 * Configuration of one plugin: the defaults its manifest declares, overridden by environment variables
 * `CEREBRO_<PLUGIN>_<KEY>` (upper case, dashes as underscores) and by the host's configuration file.
 */
export interface PluginConfig {
  readonly pluginId: string;
  /** Directory where the plugin may keep files of its own (`<data dir>/plugins/<id>`), created on demand. */
  readonly dataDir: string;
  string(key: string): string;
  number(key: string): number;
  boolean(key: string): boolean;
}
