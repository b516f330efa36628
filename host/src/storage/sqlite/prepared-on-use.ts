/** The statements of `makers`, each made (prepared) by its maker the first time it is read, then kept. */
export type PreparedOnUse<T extends Record<string, () => unknown>> = { readonly [K in keyof T]: ReturnType<T[K]> };

/**
 * A repository's prepared statements, prepared at their first use instead of in its constructor. The host builds its
 * repositories at start, and preparing their 300-odd statements took ~6 ms of each start, most of them for requests
 * that may never come. The object keeps one getter per statement (no property is redefined, so its shape stays the
 * same and V8 keeps reading it fast on the request path); a statement that fails to prepare throws at its first use,
 * and again at the next.
 */
export function preparedOnUse<T extends Record<string, () => unknown>>(makers: T): PreparedOnUse<T> {
  const statements = {} as PreparedOnUse<T>;
  for (const key of Object.keys(makers) as (keyof T & string)[]) {
    const make = makers[key]!;
    let made: unknown;
    Object.defineProperty(statements, key, {
      enumerable: true,
      get: () => (made ??= make()),
    });
  }
  return statements;
}
