import { createToken } from './tokens.js';
import type { BrandReader } from './services/brand.js';
import type { CatalogReader } from './services/catalog.js';
import type { LeadInbox } from './services/leads.js';

/**
 * Services first-party modules provide to each other. Declared here, in the contract, so a consumer depends on the
 * interface and never on the provider's package (which may not be installed).
 */
export const ModuleServices = {
  /** The brand of a space (provided by `marca`). */
  Brand: createToken<BrandReader>('marca:brand-reader'),
  /** The sales catalog of a space, read-only (provided by `ventas`). */
  Catalog: createToken<CatalogReader>('ventas:catalog-reader'),
  /** Where a space's leads from other modules go (provided by `ventas`, since sdk 2.1). */
  Leads: createToken<LeadInbox>('ventas:lead-inbox'),
} as const;
