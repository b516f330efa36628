// Console sessions on PostgreSQL: storage/sqlite/console-session-repository.ts's statements, one per method.
import { inject, injectable } from 'tsyringe';
import type { SessionRow, SessionWithOwner } from '../../studio/studio-services.js';
import type { ConsoleSessionRepository, NewSessionRecord } from '../port/console-session-repository.js';
import { MEMBER_SESSIONS, OWNER_SESSIONS, type SessionTable } from '../shared/session-tables.js';
import { pgQuery, type Pool } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

/**
 * Revokes every open session of a person (an owner's by default) but `keep` (all when null); how many. Run by the
 * session repositories and, inside their password-change transactions (which `pgQuery` joins), by the owner-login
 * and member ones.
 */
export async function revokeOtherSessions(
  pool: Pool,
  ownerId: string,
  keep: string | null,
  at: string,
  t: SessionTable = OWNER_SESSIONS,
): Promise<number> {
  const r = await pgQuery(
    pool,
    `UPDATE ${t.table} SET revoked_at = $1 WHERE ${t.person} = $2 AND id != $3 AND revoked_at IS NULL`,
    [at, ownerId, keep ?? ''],
  );
  return r.rowCount ?? 0;
}

/**
 * Studio sessions in one table of that shape (owners' `console_sessions` or members' `member_sessions`, as
 * storage/sqlite/console-session-repository.ts describes them): the person's id is answered as `owner_id`.
 */
export class PgSessionTable implements ConsoleSessionRepository {
  private readonly row: string;

  constructor(
    private readonly pool: Pool,
    private readonly t: SessionTable,
  ) {
    this.row = `s.id, s.${t.person} AS owner_id, s.secret_digest, s.created_at, s.revoked_at, s.expires_at, s.max_expires_at, s.last_seen_at, s.user_agent, s.ip, s.origin`;
  }

  async find(id: string): Promise<SessionRow | undefined> {
    return (await pgQuery<SessionRow>(this.pool, `SELECT ${this.row} FROM ${this.t.table} s WHERE s.id = $1`, [id]))
      .rows[0];
  }

  async findWithOwner(id: string): Promise<SessionWithOwner | undefined> {
    const { table, people, person, readOnly } = this.t;
    const r = await pgQuery<SessionWithOwner>(
      this.pool,
      `SELECT ${this.row}, ${readOnly} AS owner_read_only, p.deleted_at AS owner_deleted_at
         FROM ${table} s JOIN ${people} p ON p.id = s.${person} WHERE s.id = $1`,
      [id],
    );
    return r.rows[0];
  }

  async insert(s: NewSessionRecord): Promise<void> {
    await pgQuery(
      this.pool,
      `INSERT INTO ${this.t.table} (id, ${this.t.person}, secret_digest, created_at, expires_at, max_expires_at, last_seen_at,
         user_agent, ip, origin) VALUES ($1, $2, $3, $4, $5, $6, $4, $7, $8, $9)`,
      [s.id, s.ownerId, s.secretDigest, s.createdAt, s.expiresAt, s.maxExpiresAt, s.userAgent, s.ip, s.origin],
    );
  }

  async touch(id: string, lastSeenAt: string, expiresAt: string): Promise<void> {
    await pgQuery(
      this.pool,
      `UPDATE ${this.t.table} SET last_seen_at = $1, expires_at = $2 WHERE id = $3 AND revoked_at IS NULL`,
      [lastSeenAt, expiresAt, id],
    );
  }

  async active(ownerId: string, now: string): Promise<SessionRow[]> {
    // ISO times and ids compared and sorted by code point (COLLATE "C"), as SQLite does, whatever the database's collation.
    const r = await pgQuery<SessionRow>(
      this.pool,
      `SELECT ${this.row} FROM ${this.t.table} s
        WHERE s.${this.t.person} = $1 AND s.revoked_at IS NULL AND (s.expires_at IS NULL OR s.expires_at > $2 COLLATE "C")
        ORDER BY s.created_at COLLATE "C" DESC, s.id COLLATE "C"`,
      [ownerId, now],
    );
    return r.rows;
  }

  async revoke(id: string, ownerId: string, at: string): Promise<boolean> {
    const r = await pgQuery(
      this.pool,
      `UPDATE ${this.t.table} SET revoked_at = $1 WHERE id = $2 AND ${this.t.person} = $3 AND revoked_at IS NULL`,
      [at, id, ownerId],
    );
    return r.rowCount === 1;
  }

  revokeOthers(ownerId: string, keep: string | null, at: string): Promise<number> {
    return revokeOtherSessions(this.pool, ownerId, keep, at, this.t);
  }

  async prune(before: string): Promise<void> {
    await pgQuery(
      this.pool,
      `DELETE FROM ${this.t.table}
        WHERE coalesce(revoked_at, max_expires_at, expires_at) < $1 COLLATE "C" OR expires_at < $1 COLLATE "C"`,
      [before],
    );
  }
}

/** Owners' console sessions (`console_sessions`). */
@injectable()
export class PgConsoleSessionRepository extends PgSessionTable {
  constructor(@inject(PgPoolToken) pool: Pool) {
    super(pool, OWNER_SESSIONS);
  }
}

/** Members' Studio sessions (`member_sessions`). */
@injectable()
export class PgMemberSessionRepository extends PgSessionTable {
  constructor(@inject(PgPoolToken) pool: Pool) {
    super(pool, MEMBER_SESSIONS);
  }
}
