// What Studio (the console) bundles of the sdk, from source: its Vite build maps `@cerebro/sdk` to this file
// (host/studio/vite.config.ts). Only files with no imports beyond each other, so the console gets the very functions
// the modules use (the persona text of a brand, the catalog's money format) without pulling in the host's services.
export { buildPersona } from './services/brand-persona.js';
export { formatMoney } from './services/money.js';
