const TRUE_WORDS = new Set(['1', 'true', 'yes', 'si', 'sí', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

/**
 * Reads a boolean setting. Only the listed words count: anything else (`ture`, `enabled`) is refused with the
 * variable's name, instead of being read silently as false, which could leave a safety switch off unnoticed.
 */
export function parseBooleanSetting(variable: string, raw: string): boolean {
  const word = raw.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  throw new Error(`${variable} debe ser true o false (también 1/0, yes/no, sí/no, on/off); recibido "${raw}".`);
}
