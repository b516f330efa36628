/** The content codings Cerebro can send a precomputed body in, most compact first. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

const PREFERENCE: readonly ContentCoding[] = ['br', 'gzip', 'identity'];

/** Below the smallest `q` a client can write (0.001), so an unnamed identity never beats a named compression. */
const IDENTITY_FALLBACK = 0.0001;

/**
 * The coding to answer with for an `Accept-Encoding` header (RFC 9110 §12.5.3): the acceptable coding with the
 * highest `q`, ties broken by compactness; `*` stands for any coding not named. `identity` not named is the
 * fallback, below any accepted compression (RFC 9110 keeps it acceptable unless refused with `q=0`). No header: identity.
 */
export function chooseContentCoding(header: string | undefined): ContentCoding {
  if (!header) return 'identity';
  const weights = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [name, ...params] = entry
      .trim()
      .toLowerCase()
      .split(';')
      .map((part) => part.trim());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? Math.min(Math.max(weight, 0), 1) : 0);
  }
  const star = weights.get('*');
  const weightOf = (coding: ContentCoding): number =>
    weights.get(coding) ?? star ?? (coding === 'identity' ? IDENTITY_FALLBACK : 0);
  let best: ContentCoding = 'identity';
  let bestWeight = -1;
  for (const coding of PREFERENCE) {
    const weight = weightOf(coding);
    if (weight > 0 && weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}
