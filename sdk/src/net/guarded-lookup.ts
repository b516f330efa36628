import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { AddressPolicy } from './address-policy.js';

/** Resolves a host name to all its addresses (node's `dns.lookup` by default; tests give a table). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/** A refusal of the address guard (`fuentes` records it as `direccion_bloqueada`, a webhook delivery as its error). */
export class AddressRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefused';
  }
}

/**
 * The `lookup` given to the HTTP request: the socket connects only to addresses this function returned, and it
 * returns only addresses it checked, so nothing can change between the check and the connection (no DNS
 * rebinding window). A name with any refused address is refused whole: a mixed answer is the rebinding trick.
 */
export function guardedLookup(policy: AddressPolicy, resolve: Resolver): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number }, callback: (...args: unknown[]) => void) => {
    resolve(hostname)
      .then((found) => {
        if (found.length === 0) throw new Error(`No se encontró la dirección de ${hostname}.`);
        if (!policy.allowsHost(hostname)) {
          for (const a of found) {
            const refusal = policy.refusal(a.address);
            if (refusal) throw new AddressRefused(`${hostname} resuelve a ${a.address}: ${refusal}`);
          }
        }
        // IPv4 first: a server listening on one family only answers at once instead of after a failed attempt.
        const ordered = [...found]
          .sort((a, b) => a.family - b.family)
          .filter((a) => !options.family || a.family === options.family);
        if (ordered.length === 0) throw new Error(`${hostname} no tiene direcciones IPv${options.family}.`);
        if (options.all) callback(null, ordered);
        else callback(null, ordered[0]!.address, ordered[0]!.family);
      })
      .catch((err: Error) => callback(err));
  }) as unknown as LookupFunction;
}
