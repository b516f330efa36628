/** Stable codes of everything that can go wrong while loading plugins (README, "Errores de carga de plugins"). */
export type PluginErrorCode =
  | 'PLUGIN_ENTRY_INVALID'
  | 'PLUGIN_MANIFEST_INVALID'
  | 'PLUGIN_DUPLICATE_ID'
  | 'PLUGIN_ROUTE_COLLISION'
  | 'PLUGIN_ERROR_CODE_CLASH'
  | 'PLUGIN_SDK_RANGE'
  | 'PLUGIN_UNKNOWN_SERVICE'
  | 'PLUGIN_DEPENDENCY_MISSING'
  | 'PLUGIN_MIGRATION'
  | 'PLUGIN_HANDLERS_MISMATCH'
  | 'PLUGIN_INIT_FAILED'
  | 'PLUGIN_INIT_TIMEOUT';

/** A plugin problem, always naming the plugin (or the package when the id is not known yet). */
export class PluginError extends Error {
  constructor(
    readonly code: PluginErrorCode,
    readonly plugin: string,
    message: string,
  ) {
    super(`[${code}] plugin "${plugin}": ${message}`);
    this.name = 'PluginError';
  }
}
