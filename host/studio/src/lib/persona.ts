/**
 * The marca module's own persona builder (plugins/marca/src/brand/persona.ts), bundled into the console so the brand
 * editor shows, as you type, exactly the text GET /persona will give once saved: one function, not a copy. Vite
 * maps its one sdk import (the fixed rules) to sdk/src/services/brand.ts (vite.config.ts), which has no imports.
 */
export { buildPersona } from '../../../../plugins/marca/src/brand/persona.js';
