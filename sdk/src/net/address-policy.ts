import ipaddr from 'ipaddr.js';

/** Why an address is refused, in the words errors show to the owner. */
const RANGE_NAMES: Record<string, string> = {
  loopback: 'de bucle local (loopback)',
  private: 'privada',
  uniqueLocal: 'privada (IPv6 única local)',
  linkLocal: 'de enlace local (incluye la de metadatos de la nube 169.254.169.254)',
  carrierGradeNat: 'de NAT del operador (CGNAT)',
  multicast: 'de multidifusión',
  unspecified: 'no especificada',
  broadcast: 'de difusión',
  reserved: 'reservada',
};

/**
 * Which addresses an outbound request may connect to (a `fuentes` fetch, a webhook delivery): public unicast only,
 * unless the operator allowed the host or the range. IPv4-mapped
 * and NAT64/6to4 IPv6 forms are judged by the IPv4 address they carry, so `::ffff:127.0.0.1` is loopback.
 */
export class AddressPolicy {
  private readonly ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][];
  private readonly hosts: Set<string>;

  /** `allowed`: host names and CIDR ranges (or single addresses) the operator lets through, e.g. `intranet.local, 10.0.0.0/8`. */
  constructor(allowed: readonly string[] = []) {
    this.ranges = [];
    this.hosts = new Set();
    for (const raw of allowed.map((a) => a.trim()).filter(Boolean)) {
      if (ipaddr.isValidCIDR(raw)) this.ranges.push(ipaddr.parseCIDR(raw));
      else if (ipaddr.isValid(raw)) {
        const addr = ipaddr.parse(raw);
        this.ranges.push([addr, addr.kind() === 'ipv4' ? 32 : 128]);
      } else this.hosts.add(raw.toLowerCase().replace(/\.$/, ''));
    }
  }

  /** Parses a setting value: names and ranges separated by commas or spaces. */
  static fromSetting(value: string): AddressPolicy {
    return new AddressPolicy(value.split(/[\s,]+/));
  }

  /** True when the operator named this host: its addresses are then not checked. */
  allowsHost(hostname: string): boolean {
    return this.hosts.has(hostname.toLowerCase().replace(/\.$/, ''));
  }

  /** Null when the address may be connected to; else the Spanish reason. */
  refusal(address: string): string | null {
    if (!ipaddr.isValid(address)) return `«${address}» no es una dirección IP válida.`;
    const parsed = ipaddr.parse(address);
    if (this.inAllowedRange(parsed)) return null;
    const judged = embeddedIPv4(parsed) ?? parsed;
    if (judged !== parsed && this.inAllowedRange(judged)) return null;
    const range = judged.range();
    if (range === 'unicast') return null;
    return `La dirección ${address} es ${RANGE_NAMES[range] ?? `de un rango no público (${range})`}: no se permite.`;
  }

  private inAllowedRange(addr: ipaddr.IPv4 | ipaddr.IPv6): boolean {
    return this.ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
  }
}

/** The IPv4 address an IPv6 address carries (mapped, NAT64 well-known prefix, 6to4), if any. */
function embeddedIPv4(addr: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | null {
  if (addr.kind() !== 'ipv6') return null;
  const v6 = addr as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  const range = v6.range();
  const bytes = v6.toByteArray();
  if (range === 'rfc6052' || range === 'rfc6145') return ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4;
  if (range === '6to4') return ipaddr.fromByteArray(bytes.slice(2, 6)) as ipaddr.IPv4;
  return null;
}
