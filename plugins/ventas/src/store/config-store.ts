import type { Clock, PluginDatabase } from '@cerebro/sdk';
import { leadsConfigFromStored, type LeadsConfig } from '../agent/index.js';

/** The agent settings of each space (`leads-config`), one JSON document per space; defaults when never set. */
export class LeadsConfigStore {
  constructor(
    private readonly db: PluginDatabase,
    private readonly clock: Clock,
  ) {}

  async get(espacio: string): Promise<LeadsConfig> {
    const row = await this.db.queryOne<{ config: string }>('SELECT config FROM ventas_config WHERE space_id = ?', [
      espacio,
    ]);
    return leadsConfigFromStored(row ? JSON.parse(row.config) : null);
  }

  async save(espacio: string, config: LeadsConfig): Promise<void> {
    await this.db.execute(
      'INSERT INTO ventas_config (space_id, config, updated_at) VALUES (?, ?, ?) ON CONFLICT (space_id) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at',
      [espacio, JSON.stringify(config), new Date(this.clock.now()).toISOString()],
    );
  }
}
