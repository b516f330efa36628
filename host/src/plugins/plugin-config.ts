import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PluginConfig } from '@cerebro/sdk';
import { parseBooleanSetting } from '../config/boolean-setting.js';

/**
 * A plugin's configuration: manifest defaults overridden by `CEREBRO_<ID>_<KEY>` environment variables
 * (upper case; dashes and dots as underscores). Reading a key the manifest did not declare is a programming error.
 */
export class EnvPluginConfig implements PluginConfig {
  readonly dataDir: string;

  constructor(
    readonly pluginId: string,
    private readonly defaults: Record<string, string | number | boolean>,
    private readonly env: NodeJS.ProcessEnv,
    hostDataDir: string,
  ) {
    this.dataDir = join(hostDataDir, 'plugins', pluginId);
    // Boolean settings are checked now, at start, so a misspelt value fails the plugin with the variable's name
    // instead of being read as false whenever the plugin first asks.
    for (const [key, fallback] of Object.entries(defaults)) if (typeof fallback === 'boolean') this.boolean(key);
    mkdirSync(this.dataDir, { recursive: true });
  }

  static variableName(pluginId: string, key: string): string {
    return `CEREBRO_${pluginId}_${key}`.replace(/[-.]/g, '_').toUpperCase();
  }

  private raw(key: string): string | number | boolean {
    if (!(key in this.defaults))
      throw new Error(
        `El plugin "${this.pluginId}" lee la clave de configuración "${key}", que su manifiesto no declara.`,
      );
    const fromEnv = this.env[EnvPluginConfig.variableName(this.pluginId, key)];
    return fromEnv === undefined || fromEnv === '' ? this.defaults[key]! : fromEnv;
  }

  string(key: string): string {
    return String(this.raw(key));
  }

  number(key: string): number {
    const value = Number(this.raw(key));
    if (!Number.isFinite(value))
      throw new Error(`${EnvPluginConfig.variableName(this.pluginId, key)} debe ser un número.`);
    return value;
  }

  boolean(key: string): boolean {
    const value = this.raw(key);
    return typeof value === 'boolean'
      ? value
      : parseBooleanSetting(EnvPluginConfig.variableName(this.pluginId, key), String(value));
  }
}
