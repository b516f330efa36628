import type { BrandReader, BrandSnapshot, Clock, PluginDatabase } from '@cerebro/sdk';
import { brandFromStored, buildPersona, type BrandConfig } from './brand/index.js';

/** The brands of all spaces in the plugin's table, one JSON document per space. */
export class BrandStore implements BrandReader {
  constructor(
    private readonly db: PluginDatabase,
    private readonly clock: Clock,
  ) {}

  /** The stored brand, or the defaults with `name` = the space id when never configured (rule 12). */
  async get(spaceId: string): Promise<BrandConfig> {
    const row = await this.db.queryOne<{ config: string }>('SELECT config FROM marca_brands WHERE space_id = ?', [
      spaceId,
    ]);
    return brandFromStored(spaceId, row ? JSON.parse(row.config) : null);
  }

  async save(spaceId: string, brand: BrandConfig): Promise<void> {
    await this.db.execute(
      'INSERT INTO marca_brands (space_id, config, updated_at) VALUES (?, ?, ?) ON CONFLICT (space_id) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at',
      [spaceId, JSON.stringify(brand), new Date(this.clock.now()).toISOString()],
    );
  }

  /** For the sales module: the brand and its persona text. */
  async read(spaceId: string): Promise<BrandSnapshot> {
    const brand = await this.get(spaceId);
    return { ...brand, persona: buildPersona(brand) };
  }
}
