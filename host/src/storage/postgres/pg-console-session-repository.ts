// Console sessions on PostgreSQL: storage/sqlite/console-session-repository.ts's statements, one per method.
import { inject, injectable } from 'tsyringe';
import type { SessionRow, SessionWithOwner } from '../../studio/studio-services.js';
import type { ConsoleSessionRepository, NewSessionRecord } from '../port/console-session-repository.js';
import { pgQuery, type Pool, type PoolClient } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

/**
 * Revokes every open session of an owner but `keep` (all when null); how many. Run by the session repository and,
 * inside its password-change transaction, by the owner-login one.
 */
export async function revokeOtherSessions(
  db: Pool | PoolClient,
  ownerId: string,
  keep: string | null,
  at: string,
): Promise<number> {
  const r = await db.query(
    'UPDATE console_sessions SET revoked_at = $1 WHERE owner_id = $2 AND id != $3 AND revoked_at IS NULL',
    [at, ownerId, keep ?? ''],
  );
  return r.rowCount ?? 0;
}

@injectable()
export class PgConsoleSessionRepository implements ConsoleSessionRepository {
  constructor(@inject(PgPoolToken) private readonly pool: Pool) {}

  async find(id: string): Promise<SessionRow | undefined> {
    return (await pgQuery<SessionRow>(this.pool, 'SELECT * FROM console_sessions WHERE id = $1', [id])).rows[0];
  }

  async findWithOwner(id: string): Promise<SessionWithOwner | undefined> {
    const r = await pgQuery<SessionWithOwner>(
      this.pool,
      `SELECT s.*, o.read_only AS owner_read_only, o.deleted_at AS owner_deleted_at
         FROM console_sessions s JOIN owners o ON o.id = s.owner_id WHERE s.id = $1`,
      [id],
    );
    return r.rows[0];
  }

  async insert(s: NewSessionRecord): Promise<void> {
    await pgQuery(
      this.pool,
      `INSERT INTO console_sessions (id, owner_id, secret_digest, created_at, expires_at, max_expires_at, last_seen_at,
         user_agent, ip, origin) VALUES ($1, $2, $3, $4, $5, $6, $4, $7, $8, $9)`,
      [s.id, s.ownerId, s.secretDigest, s.createdAt, s.expiresAt, s.maxExpiresAt, s.userAgent, s.ip, s.origin],
    );
  }

  async touch(id: string, lastSeenAt: string, expiresAt: string): Promise<void> {
    await pgQuery(
      this.pool,
      'UPDATE console_sessions SET last_seen_at = $1, expires_at = $2 WHERE id = $3 AND revoked_at IS NULL',
      [lastSeenAt, expiresAt, id],
    );
  }

  async active(ownerId: string, now: string): Promise<SessionRow[]> {
    // ISO times and ids compared and sorted by code point (COLLATE "C"), as SQLite does, whatever the database's collation.
    const r = await pgQuery<SessionRow>(
      this.pool,
      `SELECT * FROM console_sessions
        WHERE owner_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2 COLLATE "C")
        ORDER BY created_at COLLATE "C" DESC, id COLLATE "C"`,
      [ownerId, now],
    );
    return r.rows;
  }

  async revoke(id: string, ownerId: string, at: string): Promise<boolean> {
    const r = await pgQuery(
      this.pool,
      'UPDATE console_sessions SET revoked_at = $1 WHERE id = $2 AND owner_id = $3 AND revoked_at IS NULL',
      [at, id, ownerId],
    );
    return r.rowCount === 1;
  }

  revokeOthers(ownerId: string, keep: string | null, at: string): Promise<number> {
    return revokeOtherSessions(this.pool, ownerId, keep, at);
  }

  async prune(before: string): Promise<void> {
    await pgQuery(
      this.pool,
      `DELETE FROM console_sessions
        WHERE coalesce(revoked_at, max_expires_at, expires_at) < $1 COLLATE "C" OR expires_at < $1 COLLATE "C"`,
      [before],
    );
  }
}
