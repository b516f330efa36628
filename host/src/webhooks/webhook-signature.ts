import { createHmac, randomBytes } from 'node:crypto';

/** Header carrying the signature of every delivery. */
export const SIGNATURE_HEADER = 'Cerebro-Firma';

/** A new signing secret: `whsec_` and 32 random bytes (base64url). Shown to the owner once. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Hex HMAC-SHA256 of `"<t>.<body>"` with the secret. */
export function signatureOf(secret: string, unixSeconds: number, body: string): string {
  return createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
}

/**
 * The `Cerebro-Firma` value: `t=<unix seconds>,v1=<hex>`; during the day after a rotation also a second `v1` made
 * with the previous secret, so a receiver still holding it keeps verifying while the owner updates it.
 */
export function signatureHeader(secrets: readonly string[], unixSeconds: number, body: string): string {
  return [`t=${unixSeconds}`, ...secrets.map((s) => `v1=${signatureOf(s, unixSeconds, body)}`)].join(',');
}
