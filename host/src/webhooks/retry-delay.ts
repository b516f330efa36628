/**
 * The delay before retry `n` (1: after the first failed attempt): `base · 2^(n-1)`, at most `max`, times a random
 * factor in [0.8, 1.2] so receivers coming back up are not hit by every waiting delivery at the same instant.
 */
export function retryDelay(n: number, base: number, max: number, random = Math.random): number {
  return Math.round(Math.min(max, base * 2 ** (n - 1)) * (0.8 + 0.4 * random()));
}
