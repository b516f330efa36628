import type { BrandReader, Clock } from '@cerebro/sdk';
import {
  BrandCache,
  type AgentBrand,
  type BrandCacheOptions,
  type BrandProvider,
  type BrandSource,
} from '../agent/index.js';

/**
 * The brand as the agent reads it: marca's `BrandReader` behind the domain's `BrandCache` (rule 8: a brand is
 * reused at most `ttlMs`, never more than a minute; rule 7: a failing or slow marca yields the last brand or
 * none, never an error). `reader()` is called on every fetch so a provider that fails to resolve counts as a
 * failing marca; when marca is not installed at all the agent gets no brand and uses its own description.
 */
export class MarcaBrands implements BrandProvider {
  private readonly cache: BrandCache | null;

  constructor(reader: () => BrandReader | null, installed: boolean, clock: Clock, options: BrandCacheOptions) {
    const source: BrandSource = {
      fetch: async (espacio: string): Promise<AgentBrand> => {
        const current = reader();
        if (!current) throw new Error('marca no disponible');
        return current.read(espacio);
      },
    };
    this.cache = installed ? new BrandCache(source, clock, options) : null;
  }

  get(espacio: string): ReturnType<BrandProvider['get']> {
    return this.cache ? this.cache.get(espacio) : Promise.resolve({ brand: null, origen: 'ninguna' });
  }
}
