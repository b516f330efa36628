import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import { digestSecret, secretMatches } from '../access/credentials.js';
import { HostTokens } from '../kernel/tokens.js';
import type { SqliteDatabase } from '../storage/database.js';
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
export class SqliteSignInLinks implements SignInLinks {
  private readonly stmts;

  constructor(
    @inject(HostTokens.Database) db: SqliteDatabase,
    @inject(HostTokens.Clock) private readonly clock: Clock,
  ) {
    this.stmts = {
      insert: db.prepare(
        'INSERT INTO sign_in_links (id, owner_id, secret_digest, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
      ),
      find: db.prepare<[string], { owner_id: string; secret_digest: Buffer }>(
        'SELECT owner_id, secret_digest FROM sign_in_links WHERE id = ?',
      ),
      use: db.prepare('UPDATE sign_in_links SET used_at = ? WHERE id = ? AND used_at IS NULL AND expires_at > ?'),
      owner: db.prepare('SELECT 1 FROM owners WHERE id = ? AND deleted_at IS NULL'),
      prune: db.prepare('DELETE FROM sign_in_links WHERE expires_at < ?'),
    };
  }

  /** A new link token for an existing owner, and when it expires. */
  issue(ownerId: string): { token: string; expira: string } {
    if (!this.stmts.owner.get(ownerId)) throw apiError('not_found', 'Propietario no encontrado.');
    const id = randomBytes(8).toString('hex');
    const secret = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    // Links expired more than a day ago serve no one: dropped whenever a new one is issued.
    this.stmts.prune.run(new Date(now - 86_400_000).toISOString());
    const expira = new Date(now + LINK_LIFETIME_MS).toISOString();
    this.stmts.insert.run(id, ownerId, digestSecret(secret), new Date(now).toISOString(), expira);
    return { token: `${id}.${secret}`, expira };
  }

  /** The owner the link signs in, consuming it; null when it is malformed, unknown, used, expired or its owner gone. */
  consume(token: unknown): string | null {
    const parts = typeof token === 'string' ? TOKEN.exec(token) : null;
    const row = parts ? this.stmts.find.get(parts[1]!) : undefined;
    const valid = secretMatches(parts?.[2] ?? 'x'.repeat(43), row?.secret_digest);
    if (!row || !valid) return null;
    const now = new Date(this.clock.now()).toISOString();
    if (this.stmts.use.run(now, parts![1]!, now).changes !== 1) return null;
    return this.stmts.owner.get(row.owner_id) ? row.owner_id : null;
  }
}
