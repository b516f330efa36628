import * as crypto from 'node:crypto';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Credential strings: `<prefix>_<id>.<secret>`, with an id of 16 hexadecimal characters and a secret of
 * 43 base64url characters (32 random bytes). Service keys use the contract's fixed prefix `crb`; console
 * sessions `crs`; members' Studio sessions `crm`; the platform operator `cra`. Only a SHA-256 digest of the secret is stored.
 */
export const CredentialPrefix = { key: 'crb', console: 'crs', member: 'crm', operator: 'cra' } as const;
export type CredentialKind = keyof typeof CredentialPrefix;

export interface ParsedCredential {
  kind: CredentialKind;
  id: string;
  secret: string;
}

export interface IssuedCredential {
  id: string;
  /** The full string, shown once. */
  token: string;
  digest: Buffer;
}

const FORMAT = /^(crb|crs|crm|cra)_([0-9a-f]{16})\.([A-Za-z0-9_-]{43})$/;
const KIND_OF_PREFIX: Record<string, CredentialKind> = { crb: 'key', crs: 'console', crm: 'member', cra: 'operator' };

// One-shot `crypto.hash` (Node >= 20.12): about 6x cheaper than createHash().update().digest(), which builds a
// native Hash object per call. This runs on every authenticated request. Looked up on the namespace, not imported
// by name, so an older Node 20 still starts (with the slower path) instead of failing to link the module.
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;
export const digestSecret: (secret: string) => Buffer = oneShotHash
  ? (secret) => oneShotHash('sha256', secret, 'buffer')
  : (secret) => createHash('sha256').update(secret, 'utf8').digest();

export function issueCredential(kind: CredentialKind): IssuedCredential {
  const id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `${CredentialPrefix[kind]}_${id}.${secret}`, digest: digestSecret(secret) };
}

/** Parses `Bearer <credential>`; null for anything not of the exact format. */
export function parseBearer(header: string | undefined): ParsedCredential | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? parseCredential(match[1]!) : null;
}

/** Parses a bare credential string (the Studio session cookie's value); null for anything not of the exact format. */
export function parseCredential(text: string): ParsedCredential | null {
  const parts = FORMAT.exec(text);
  if (!parts) return null;
  return { kind: KIND_OF_PREFIX[parts[1]!]!, id: parts[2]!, secret: parts[3]! };
}

/** A digest nobody's secret hashes to, compared when the id is unknown so that path costs the same. */
const DECOY = digestSecret('cerebro-decoy');

/**
 * Compares the digest of `secret` with the stored one in constant time. Always hashes and compares once, even
 * when there is no stored digest, so timing says nothing about whether the id exists or how much matched.
 */
export function secretMatches(secret: string, stored: Buffer | undefined): boolean {
  const candidate = digestSecret(secret);
  const reference = stored && stored.length === candidate.length ? stored : DECOY;
  return timingSafeEqual(candidate, reference) && reference !== DECOY;
}
