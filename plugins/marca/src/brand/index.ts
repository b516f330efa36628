// Public surface of the brand domain: everything the marca routes and the ventas wiring use.
export type { BrandConfig, BrandSection, Estilo, Identidad, Tacticas } from './types.js';
export { defaultBrand, defaultEstilo, defaultIdentidad, defaultTacticas } from './defaults.js';
export { MAX_LINEAS_MAX, MAX_LINEAS_MIN, RASGOS, TONOS, TONOS_INCOMPATIBLES } from './vocabulary.js';
export { applyBrandPatch, foldKey } from './patch.js';
export type { FieldError, PatchResult } from './patch.js';
export { buildPersona, fixedRulesText, identitySentence, REGLAS_FIJAS } from './persona.js';
export { brandFromStored } from './stored.js';
