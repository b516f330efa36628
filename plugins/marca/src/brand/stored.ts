// Reading a brand back from storage. A space that never configured its brand has no row
// (rule 12: defaults, `name` = space id). A stored row is re-validated through the same PATCH
// path so a row written by an older version, with fields missing, still comes back complete.
import { defaultBrand } from './defaults.js';
import { applyBrandPatch } from './patch.js';
import type { BrandConfig } from './types.js';

export function brandFromStored(spaceId: string, stored: unknown): BrandConfig {
  const base = defaultBrand(spaceId);
  if (stored === null || stored === undefined) return base;
  const result = applyBrandPatch(base, stored);
  // An unreadable row must not take the brand routes down: fall back to the defaults.
  return result.ok ? result.brand : base;
}
