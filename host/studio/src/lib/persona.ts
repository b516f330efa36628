/**
 * The persona builder of the sdk (the one marca's GET /persona uses), bundled into the console so the brand editor
 * shows, as you type, exactly the text GET /persona will give once saved: one function, not a copy, and no import
 * of a plugin's source. Vite maps the sdk to sdk/src/console-bundle.ts (vite.config.ts): the persona builder, whose only
 * import is the brand's shape and fixed rules (sdk/src/services/brand.ts, no imports), and the money format.
 */
export { buildPersona } from '@cerebro/sdk';
