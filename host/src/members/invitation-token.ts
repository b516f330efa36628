import { randomBytes } from 'node:crypto';
import { digestSecret } from '../access/credentials.js';

/** How long an invitation link works. */
export const INVITATION_LIFETIME_MS = 7 * 86_400_000;
const TOKEN = /^([0-9a-f]{16})\.([A-Za-z0-9_-]{43})$/;

/** A new invitation token `<id>.<secret>`: the id is stored as is, the secret only as its digest. */
export function issueInvitationToken(): { id: string; token: string; digest: Buffer } {
  const id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `${id}.${secret}`, digest: digestSecret(secret) };
}

/** The id and secret of a token, or null for anything not of the exact format. */
export function parseInvitationToken(token: string): { id: string; secret: string } | null {
  const parts = TOKEN.exec(token);
  return parts ? { id: parts[1]!, secret: parts[2]! } : null;
}

/** The page that accepts an invitation, as linked from Studio (opening it spends nothing). */
export const invitationLink = (origin: string, token: string): string => `${origin}/studio/invitacion?token=${token}`;
