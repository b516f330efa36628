/**
 * Typed dependency-injection tokens.
 *
 * A token is a registered symbol (`Symbol.for`) so that two copies of the sdk in one process still agree on
 * identity, branded with the type of the service it stands for so `resolve(token)` is typed without casts.
 */
declare const serviceType: unique symbol;

export type Token<T> = symbol & { readonly [serviceType]?: T };

/** The service type a token stands for. */
export type ServiceOf<K> = K extends Token<infer T> ? T : never;

const TOKEN_NAME = /^[a-z][a-z0-9-]*:[a-z][a-zA-Z0-9-]*$/;

/**
 * Creates a typed token. Names are `<owner>:<service>`, e.g. `host:logger` or `marca:brand-persona`.
 * @example
 * export const Greeter = createToken<{ greet(name: string): string }>('hello:greeter');
 */
export function createToken<T>(name: string): Token<T> {
  if (!TOKEN_NAME.test(name)) {
    throw new TypeError(`Nombre de token no válido: "${name}" (se espera "<dueño>:<servicio>").`);
  }
  return Symbol.for(`cerebro:${name}`) as Token<T>;
}

/** The `<owner>:<service>` name of a token, for messages and manifests. */
export function tokenName(token: symbol): string {
  return (token.description ?? '').replace(/^cerebro:/, '');
}
