/** Version of the plugin contract. Plugins declare the range they need in their manifest (`sdk`). */
export const SDK_VERSION = '2.1.0';

/**
 * Earlier contract lines a host of this version still loads: sdk 2 removed nothing from 1.x (its synchronous
 * `HostServices.Storage` is deprecated, kept on SQLite), so a plugin declaring `^1.x` runs unchanged.
 */
export const SDK_STILL_SERVED = '^1.0.0';
