/**
 * A JSON document as a tree that keeps what `JSON.stringify` cannot express: repeated keys, a literal `__proto__`
 * key (an object literal would set the prototype instead), and number literals such as `1e400` or `-0`.
 */
export type JsonNode =
  | null
  | boolean
  | string
  | { literal: string }
  | { items: JsonNode[] }
  | { entries: [string, JsonNode][] };

export function jsonText(node: JsonNode): string {
  if (node === null || typeof node === 'boolean' || typeof node === 'string') return JSON.stringify(node);
  if ('literal' in node) return node.literal;
  if ('items' in node) return `[${node.items.map(jsonText).join(',')}]`;
  return `{${node.entries.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
}

export const num = (n: number | string): JsonNode => ({
  literal: typeof n === 'number' ? (Number.isFinite(n) ? String(n) : 'null') : n,
});
