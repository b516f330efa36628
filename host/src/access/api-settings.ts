import { BlockList, isIP } from 'node:net';

/** API settings of a space, as stored (JSON) and as sent on the wire (same Spanish names). */
export interface ApiSettings {
  /** Requests per minute allowed to keys on this space; null = no limit. */
  limite_por_minuto: number | null;
  /** Requests per calendar day (UTC) allowed to keys on this space; null = no quota. */
  cuota_diaria: number | null;
  /** IPv4/IPv6 addresses or CIDR ranges; empty = any address. */
  ips_permitidas: string[];
  /** Compiled allow-list (not serialised). */
  readonly allowList?: BlockList;
}

export const DEFAULT_API_SETTINGS = { limite_por_minuto: 600, cuota_diaria: null, ips_permitidas: [] as string[] };

/** Parses one allow-list entry; returns the error text when it is not an address or CIDR range. */
export function parseIpEntry(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | string {
  const [address = '', prefixText, ...rest] = entry.trim().split('/');
  const version = isIP(address);
  if (!version || rest.length > 0) return `"${entry}" no es una dirección IP ni un rango CIDR.`;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (
    !Number.isInteger(prefix) ||
    prefix < 0 ||
    prefix > max ||
    (prefixText !== undefined && !/^\d+$/.test(prefixText))
  ) {
    return `"${entry}": el prefijo CIDR debe estar entre 0 y ${max}.`;
  }
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

function compile(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const parsed = parseIpEntry(entry);
    if (typeof parsed !== 'string') list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return list;
}

export function parseApiSettings(json: string): ApiSettings {
  const raw = JSON.parse(json || '{}') as Partial<ApiSettings>;
  const ips = raw.ips_permitidas ?? [];
  return {
    limite_por_minuto:
      raw.limite_por_minuto === undefined ? DEFAULT_API_SETTINGS.limite_por_minuto : raw.limite_por_minuto,
    cuota_diaria: raw.cuota_diaria ?? null,
    ips_permitidas: ips,
    allowList: compile(ips),
  };
}

/** Whether `ip` may call with a key. IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`) count as IPv4. */
export function ipAllowed(settings: ApiSettings, ip: string): boolean {
  if (settings.ips_permitidas.length === 0) return true;
  const plain = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const family = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
  return isIP(plain) !== 0 && (settings.allowList ?? compile(settings.ips_permitidas)).check(plain, family);
}
