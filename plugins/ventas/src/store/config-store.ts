import type { Clock, PluginStorage } from '@cerebro/sdk';
import { leadsConfigFromStored, type LeadsConfig } from '../agent/index.js';

/** The agent settings of each space (`leads-config`), one JSON document per space; defaults when never set. */
export class LeadsConfigStore {
  private readonly select;
  private readonly upsert;

  constructor(
    storage: PluginStorage,
    private readonly clock: Clock,
  ) {
    this.select = storage.prepare<{ config: string }>('SELECT config FROM ventas_config WHERE space_id = ?');
    this.upsert = storage.prepare(
      'INSERT INTO ventas_config (space_id, config, updated_at) VALUES (?, ?, ?) ON CONFLICT (space_id) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at',
    );
  }

  get(espacio: string): LeadsConfig {
    const row = this.select.get(espacio);
    return leadsConfigFromStored(row ? JSON.parse(row.config) : null);
  }

  save(espacio: string, config: LeadsConfig): void {
    this.upsert.run(espacio, JSON.stringify(config), new Date(this.clock.now()).toISOString());
  }
}
