// The token that stands for a space inside the full-text index. A hash keeps arbitrary space ids (any characters,
// any length) out of the FTS5 query syntax; results are also joined back on the plain `space` column.
import { createHash } from 'node:crypto';

export function spaceKey(space: string): string {
  return `k${createHash('sha256').update(space).digest('hex').slice(0, 24)}`;
}
