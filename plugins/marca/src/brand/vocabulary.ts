// Allowed values of `estilo.tono` and `estilo.rasgos`, each with the instruction the persona
// text gives for it. A closed list keeps the persona predictable: every value has wording
// that was written and reviewed once, instead of free text pasted into the agent description.
import { BRAND_TONES, BRAND_TRAITS } from '@cerebro/sdk';

/** tono value -> how the persona text describes it (the wording lives in the sdk, which builds the persona). */
export const TONOS: Readonly<Record<string, string>> = BRAND_TONES;

/** Pairs of tones that cannot be combined: the persona would contradict itself. */
export const TONOS_INCOMPATIBLES: ReadonlyArray<readonly [string, string]> = [
  ['cercano', 'formal'],
  ['formal', 'divertido'],
  ['sereno', 'entusiasta'],
];

/** rasgo value -> what the agent does because of it. */
export const RASGOS: Readonly<Record<string, string>> = BRAND_TRAITS;

export const MAX_LINEAS_MIN = 1;
export const MAX_LINEAS_MAX = 20;
