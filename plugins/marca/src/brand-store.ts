import type { BrandReader, BrandSnapshot, Clock, PluginStorage } from '@cerebro/sdk';
import { brandFromStored, buildPersona, type BrandConfig } from './brand/index.js';

/** The brands of all spaces in the plugin's table, one JSON document per space. */
export class BrandStore implements BrandReader {
  private readonly select;
  private readonly upsert;

  constructor(
    storage: PluginStorage,
    private readonly clock: Clock,
  ) {
    this.select = storage.prepare<{ config: string }>('SELECT config FROM marca_brands WHERE space_id = ?');
    this.upsert = storage.prepare(
      'INSERT INTO marca_brands (space_id, config, updated_at) VALUES (?, ?, ?) ON CONFLICT (space_id) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at',
    );
  }

  /** The stored brand, or the defaults with `name` = the space id when never configured (rule 12). */
  get(spaceId: string): BrandConfig {
    const row = this.select.get(spaceId);
    return brandFromStored(spaceId, row ? JSON.parse(row.config) : null);
  }

  save(spaceId: string, brand: BrandConfig): void {
    this.upsert.run(spaceId, JSON.stringify(brand), new Date(this.clock.now()).toISOString());
  }

  /** For the sales module: the brand and its persona text. */
  async read(spaceId: string): Promise<BrandSnapshot> {
    const brand = this.get(spaceId);
    return { ...brand, persona: buildPersona(brand) };
  }
}
