import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Owner passwords, stored as `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (base64url): a memory-hard digest (32 MiB per
 * check at the defaults) with a per-password salt, and its parameters beside it so they can be raised later
 * without invalidating stored digests. node's own scrypt, run on the libuv pool: the event loop keeps serving.
 */
const COST = { logN: 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const FORMAT = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]{22,})\$([A-Za-z0-9_-]{43})$/;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  // 128 * N * r bytes of working memory, and some room: node refuses anything above `maxmem`.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, COST.logN, COST.r, COST.p);
  return `scrypt$${COST.logN}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** A digest no password matches, checked when the owner has none (or is unknown): the same work either way. */
let decoy: Promise<string> | undefined;

/**
 * Whether `password` matches `stored`. Without a stored digest it still runs one full derivation against a decoy,
 * so the time taken does not tell an unknown email (or an owner without password) from a wrong password.
 */
export async function passwordMatches(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = stored ? FORMAT.exec(stored) : null;
  if (!parts) {
    await passwordMatches(password, await (decoy ??= hashPassword(randomBytes(18).toString('base64url'))));
    return false;
  }
  const [, logN, r, p, salt, hash] = parts;
  const expected = Buffer.from(hash!, 'base64url');
  const actual = await derive(password, Buffer.from(salt!, 'base64url'), Number(logN), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
