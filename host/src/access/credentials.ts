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

/** The format of every credential string (`parseCredential`). */
export const CREDENTIAL_FORMAT = /^(crb|crs|crm|cra)_([0-9a-f]{16})\.([A-Za-z0-9_-]{43})$/;
/** Characters of a credential's secret (32 random bytes in base64url). */
const SECRET_LENGTH = 43;
const KIND_OF_PREFIX = new Map<string, CredentialKind>([
  ['crb', 'key'],
  ['crs', 'console'],
  ['crm', 'member'],
  ['cra', 'operator'],
]);

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

/** `Bearer ` and a credential, as clients send it (`crb_` + 16 + `.` + 43 characters). */
const USUAL_BEARER_LENGTH = 'Bearer '.length + 64;

/** Parses `Bearer <credential>`; null for anything not of the exact format. */
export function parseBearer(header: string | undefined): ParsedCredential | null {
  if (!header) return null;
  // The usual spelling without a regular expression (this runs on every request); other cases and spacing below.
  if (header.length === USUAL_BEARER_LENGTH && header.startsWith('Bearer ')) return parseCredential(header.slice(7));
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? parseCredential(match[1]!) : null;
}

/**
 * Parses a bare credential string (the Studio session cookie's value); null for anything not of the exact format.
 * A `test` and three slices rather than `exec`: the match array and its captures were most of the cost of parsing,
 * which runs on every request.
 */
export function parseCredential(text: string): ParsedCredential | null {
  if (text.length !== 64 || !CREDENTIAL_FORMAT.test(text)) return null;
  return { kind: KIND_OF_PREFIX.get(text.slice(0, 3))!, id: text.slice(4, 20), secret: text.slice(21) };
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

/** Compared with when no proven secret is known, so that path does the same work as the others. */
const DECOY_SECRET = 'x'.repeat(SECRET_LENGTH);

/**
 * Whether two secrets are equal, comparing every character whatever the first difference: the time says nothing
 * about how much of a guess was right (a plain `===` stops at the first differing character).
 */
export function sameSecret(a: string, b: string): boolean {
  let diff = (a.length ^ SECRET_LENGTH) | (b.length ^ SECRET_LENGTH);
  for (let i = 0; i < SECRET_LENGTH; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * `secretMatches` for memoised credential rows, without hashing again a secret this very row object was already
 * proven with. The SHA-256 of the secret was about a tenth of an authenticated request's CPU, spent to prove the
 * same thing on every request of a key.
 *
 * Safe because the proof is tied to the row object, not to the id: the access directory hands out a new row after
 * any change to credentials (a revocation, a deleted owner, a new secret), so a revoked credential is hashed and
 * refused on its next request, as before. A guess never takes the shortcut: it is compared in full with the proven
 * secret (or a decoy when there is none) and then hashed, so a wrong secret costs the same whether the id exists,
 * whether the key was used lately, and however many characters it got right. The proven secret stays in memory as
 * long as its row stays memoised (until the next change to the directory, or the memo's bound); a request's own
 * headers hold it as long.
 */
export class ProvenSecrets {
  private readonly proven = new WeakMap<object, string>();

  matches(secret: string, row: { readonly secret_digest: Buffer } | undefined): boolean {
    const known = row === undefined ? undefined : this.proven.get(row);
    const same = sameSecret(secret, known ?? DECOY_SECRET);
    if (same && known !== undefined) return true;
    const valid = secretMatches(secret, row?.secret_digest);
    if (valid && row !== undefined) this.proven.set(row, secret);
    return valid;
  }
}
