import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import { digestSecret, secretMatches } from '../access/credentials.js';
import { HostTokens } from '../kernel/tokens.js';
import { type SignInLinkRepository, SignInLinkRepositoryToken } from '../storage/port/sign-in-link-repository.js';
import type { SignInLinks } from './studio-services.js';

/** How long a one-time sign-in link works. */
export const LINK_LIFETIME_MS = 30 * 60_000;
const TOKEN = /^([0-9a-f]{16})\.([A-Za-z0-9_-]{43})$/;

/**
 * One-time sign-in links the operator hands to an owner (`/studio/entrar?token=<id>.<secret>`): only a digest of
 * the secret is stored; the first use marks it used (in the same UPDATE that checks it), so two clicks never open
 * two sessions; it expires after 30 minutes.
 */
@injectable()
export class OneTimeSignInLinks implements SignInLinks {
  constructor(
    @inject(SignInLinkRepositoryToken) private readonly repo: SignInLinkRepository,
    @inject(HostTokens.Clock) private readonly clock: Clock,
  ) {}

  /** A new link token for an existing owner, and when it expires. */
  async issue(ownerId: string): Promise<{ token: string; expira: string }> {
    if (!(await this.repo.ownerActive(ownerId))) throw apiError('not_found', 'Propietario no encontrado.');
    const id = randomBytes(8).toString('hex');
    const secret = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expira = new Date(now + LINK_LIFETIME_MS).toISOString();
    // Links expired more than a day ago serve no one: dropped whenever a new one is issued.
    await this.repo.insert(
      { id, ownerId, secretDigest: digestSecret(secret), createdAt: new Date(now).toISOString(), expiresAt: expira },
      new Date(now - 86_400_000).toISOString(),
    );
    return { token: `${id}.${secret}`, expira };
  }

  /** The owner the link signs in, consuming it; null when it is malformed, unknown, used, expired or its owner gone. */
  async consume(token: unknown): Promise<string | null> {
    const parts = typeof token === 'string' ? TOKEN.exec(token) : null;
    const row = parts ? await this.repo.find(parts[1]!) : undefined;
    const valid = secretMatches(parts?.[2] ?? 'x'.repeat(43), row?.secretDigest);
    if (!row || !valid) return null;
    const now = new Date(this.clock.now()).toISOString();
    if (!(await this.repo.use(parts![1]!, now))) return null;
    return (await this.repo.ownerActive(row.ownerId)) ? row.ownerId : null;
  }
}
