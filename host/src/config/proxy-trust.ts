import proxyaddr from 'proxy-addr';

/** Whether the hop at distance `i` (0 = the socket's peer) with address `addr` is one of our own proxies. */
export type ProxyTrust = (addr: string, i: number) => boolean;

const HOPS = /^\d+$/;
/** The boolean spellings of "trust the leftmost entry" (`1` is read as one hop, the safe meaning). */
const OLD_TRUE_WORDS = new Set(['true', 'yes', 'si', 'sí', 'on']);

/**
 * Reads `CEREBRO_TRUST_PROXY` into a trust function compiled once at start (the per-request work is then only
 * walking `X-Forwarded-For`), or `null` to take the socket's address as the caller's.
 *
 * - empty, `false`, `0`: no proxy; `X-Forwarded-For` is ignored.
 * - a number N: the N nearest hops are proxies (the socket's peer and N-1 forwarded entries); `1` is one hop.
 * - a comma list of addresses, CIDRs and the named sets `loopback`, `linklocal`, `uniquelocal`.
 *
 * The caller IP is then the first untrusted address counting from the socket towards the client, so entries
 * a client writes itself to the left of the header cannot be chosen. The old `true` meant "the leftmost entry",
 * which the client controls: it is refused with the values to write instead.
 */
export function parseProxyTrust(variable: string, raw: string | undefined): ProxyTrust | null {
  const value = (raw ?? '').trim();
  if (value === '' || value.toLowerCase() === 'false' || value === '0') return null;
  if (OLD_TRUE_WORDS.has(value.toLowerCase())) {
    throw new Error(
      `${variable}=${raw} ya no se admite: tomaba la primera dirección de X-Forwarded-For, que escribe el cliente. ` +
        'Indica qué proxies son tuyos: sus direcciones o redes (p. ej. "loopback" o "10.0.0.0/8,loopback") o el número de saltos (p. ej. "1").',
    );
  }
  if (HOPS.test(value)) {
    const hops = Number(value);
    return (_addr, i) => i < hops;
  }
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    const compiled = proxyaddr.compile(entries);
    return remembered((addr) => compiled(addr, 0));
  } catch (err) {
    throw new Error(
      `${variable} debe ser un número de saltos o una lista de direcciones, redes CIDR, loopback, linklocal o uniquelocal; ${(err as Error).message} (recibido "${raw}").`,
    );
  }
}

/**
 * A list trust depends on the address alone, and parsing it (ipaddr.js) is most of the cost of a request's
 * caller IP; the few proxy and client addresses seen over and over are answered from a bounded memo.
 */
function remembered(trust: (addr: string) => boolean): ProxyTrust {
  const memo = new Map<string, boolean>();
  return (addr) => {
    let trusted = memo.get(addr);
    if (trusted === undefined) {
      if (memo.size >= 4096) memo.clear();
      trusted = trust(addr);
      memo.set(addr, trusted);
    }
    return trusted;
  };
}

/** The caller's address under a compiled trust (see `parseProxyTrust`). */
export function trustedCallerAddress(req: Parameters<typeof proxyaddr>[0], trust: ProxyTrust): string {
  return proxyaddr(req, trust) ?? '';
}
