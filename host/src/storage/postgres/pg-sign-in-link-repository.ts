// One-time sign-in links on PostgreSQL: storage/sqlite/sign-in-link-repository.ts's statements.
import { inject, injectable } from 'tsyringe';
import type { SignInLinkRecord, SignInLinkRepository } from '../port/sign-in-link-repository.js';
import { inTransaction, type Pool } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

@injectable()
export class PgSignInLinkRepository implements SignInLinkRepository {
  constructor(@inject(PgPoolToken) private readonly pool: Pool) {}

  insert(link: SignInLinkRecord, pruneBefore: string): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      await client.query('DELETE FROM sign_in_links WHERE expires_at < $1 COLLATE "C"', [pruneBefore]);
      await client.query(
        'INSERT INTO sign_in_links (id, owner_id, secret_digest, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [link.id, link.ownerId, link.secretDigest, link.createdAt, link.expiresAt],
      );
    });
  }

  async find(id: string): Promise<{ ownerId: string; secretDigest: Buffer } | undefined> {
    const r = await this.pool.query<{ owner_id: string; secret_digest: Buffer }>(
      'SELECT owner_id, secret_digest FROM sign_in_links WHERE id = $1',
      [id],
    );
    const row = r.rows[0];
    return row && { ownerId: row.owner_id, secretDigest: row.secret_digest };
  }

  async use(id: string, now: string): Promise<boolean> {
    // One conditional update: of two uses at once, the second waits for the first's row lock and then finds it used.
    const r = await this.pool.query(
      'UPDATE sign_in_links SET used_at = $1 WHERE id = $2 AND used_at IS NULL AND expires_at > $1 COLLATE "C"',
      [now, id],
    );
    return r.rowCount === 1;
  }

  async ownerActive(ownerId: string): Promise<boolean> {
    const r = await this.pool.query('SELECT 1 FROM owners WHERE id = $1 AND deleted_at IS NULL', [ownerId]);
    return (r.rowCount ?? 0) > 0;
  }
}
