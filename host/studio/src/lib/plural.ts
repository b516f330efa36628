import { formatNumber } from './format.js';

/** `1 línea`, `3 líneas`: the count with the right form of the word. */
export const plural = (n: number, one: string, many: string): string => `${formatNumber(n)} ${n === 1 ? one : many}`;
