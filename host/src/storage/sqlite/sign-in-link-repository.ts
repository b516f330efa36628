import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type { SignInLinkRecord, SignInLinkRepository } from '../port/sign-in-link-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

/** One-time sign-in links in the `sign_in_links` table. */
@injectable()
export class SqliteSignInLinkRepository implements SignInLinkRepository {
  private readonly stmts;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.stmts = preparedOnUse({
      insert: () =>
        db.prepare(
          'INSERT INTO sign_in_links (id, owner_id, secret_digest, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
        ),
      find: () =>
        db.prepare<[string], { owner_id: string; secret_digest: Buffer }>(
          'SELECT owner_id, secret_digest FROM sign_in_links WHERE id = ?',
        ),
      use: () => db.prepare('UPDATE sign_in_links SET used_at = ? WHERE id = ? AND used_at IS NULL AND expires_at > ?'),
      owner: () => db.prepare('SELECT 1 FROM owners WHERE id = ? AND deleted_at IS NULL'),
      prune: () => db.prepare('DELETE FROM sign_in_links WHERE expires_at < ?'),
    });
  }

  async insert(link: SignInLinkRecord, pruneBefore: string): Promise<void> {
    this.stmts.prune.run(pruneBefore);
    this.stmts.insert.run(link.id, link.ownerId, link.secretDigest, link.createdAt, link.expiresAt);
  }

  async find(id: string): Promise<{ ownerId: string; secretDigest: Buffer } | undefined> {
    const row = this.stmts.find.get(id);
    return row && { ownerId: row.owner_id, secretDigest: row.secret_digest };
  }

  async use(id: string, now: string): Promise<boolean> {
    return this.stmts.use.run(now, id, now).changes === 1;
  }

  async ownerActive(ownerId: string): Promise<boolean> {
    return this.stmts.owner.get(ownerId) !== undefined;
  }
}
