// Shape of a space's brand as stored, returned by GET /config and read by the sales agent.
// Wire names are the contract's (Spanish); every section is always complete once stored
// (missing fields are filled with defaults when a section is written).

import type { BrandConfig, BrandEstilo, BrandIdentidad, BrandTacticas } from '@cerebro/sdk';

// The shapes are the contract's, declared once in the sdk (shared with the sales module).
export type { BrandConfig };
export type Identidad = BrandIdentidad;
export type Estilo = BrandEstilo;
export type Tacticas = BrandTacticas;

export type BrandSection = 'identidad' | 'estilo' | 'tacticas';
