import type { Statement } from 'better-sqlite3';
import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SessionRow, SessionWithOwner } from '../../studio/studio-services.js';
import type { SqliteDatabase } from '../database.js';
import type { ConsoleSessionRepository, NewSessionRecord } from '../port/console-session-repository.js';
import { MEMBER_SESSIONS, OWNER_SESSIONS, type SessionTable } from '../shared/session-tables.js';
import { preparedOnUse } from './prepared-on-use.js';

/**
 * Revoking every open session of a person but one (an owner's by default): prepared by the session repositories and
 * by the owner-login and member ones, whose password changes run it in their own transaction. Parameters: revoked
 * at, person id, session kept ('' none).
 */
export function prepareRevokeOthers(
  db: SqliteDatabase,
  t: SessionTable = OWNER_SESSIONS,
): Statement<[string, string, string]> {
  return db.prepare<[string, string, string]>(
    `UPDATE ${t.table} SET revoked_at = ? WHERE ${t.person} = ? AND id != ? AND revoked_at IS NULL`,
  );
}

/**
 * Studio sessions in one table of that shape (owners' or members'): the person's id is answered as `owner_id`,
 * the session row's field, whichever kind of person it is.
 */
export class SqliteSessionTable implements ConsoleSessionRepository {
  private readonly stmts;

  constructor(db: SqliteDatabase, t: SessionTable) {
    const row = `s.id, s.${t.person} AS owner_id, s.secret_digest, s.created_at, s.revoked_at, s.expires_at, s.max_expires_at, s.last_seen_at, s.user_agent, s.ip, s.origin`;
    this.stmts = preparedOnUse({
      find: () => db.prepare<[string], SessionRow>(`SELECT ${row} FROM ${t.table} s WHERE s.id = ?`),
      withOwner: () =>
        db.prepare<[string], SessionWithOwner>(
          `SELECT ${row}, ${t.readOnly} AS owner_read_only, p.deleted_at AS owner_deleted_at FROM ${t.table} s JOIN ${t.people} p ON p.id = s.${t.person} WHERE s.id = ?`,
        ),
      insert: () =>
        db.prepare(`INSERT INTO ${t.table} (id, ${t.person}, secret_digest, created_at, expires_at, max_expires_at, last_seen_at, user_agent, ip, origin)
                          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      touch: () =>
        db.prepare(`UPDATE ${t.table} SET last_seen_at = ?, expires_at = ? WHERE id = ? AND revoked_at IS NULL`),
      active: () =>
        db.prepare<[string, string], SessionRow>(
          `SELECT ${row} FROM ${t.table} s WHERE s.${t.person} = ? AND s.revoked_at IS NULL AND (s.expires_at IS NULL OR s.expires_at > ?) ORDER BY s.created_at DESC, s.id`,
        ),
      revoke: () =>
        db.prepare(`UPDATE ${t.table} SET revoked_at = ? WHERE id = ? AND ${t.person} = ? AND revoked_at IS NULL`),
      revokeOthers: () => prepareRevokeOthers(db, t),
      prune: () =>
        db.prepare(
          `DELETE FROM ${t.table} WHERE coalesce(revoked_at, max_expires_at, expires_at) < ? OR expires_at < ?`,
        ),
    });
  }

  async find(id: string): Promise<SessionRow | undefined> {
    return this.stmts.find.get(id);
  }

  async findWithOwner(id: string): Promise<SessionWithOwner | undefined> {
    return this.stmts.withOwner.get(id);
  }

  async insert(s: NewSessionRecord): Promise<void> {
    this.stmts.insert.run(
      s.id,
      s.ownerId,
      s.secretDigest,
      s.createdAt,
      s.expiresAt,
      s.maxExpiresAt,
      s.createdAt,
      s.userAgent,
      s.ip,
      s.origin,
    );
  }

  async touch(id: string, lastSeenAt: string, expiresAt: string): Promise<void> {
    this.stmts.touch.run(lastSeenAt, expiresAt, id);
  }

  async active(ownerId: string, now: string): Promise<SessionRow[]> {
    return this.stmts.active.all(ownerId, now);
  }

  async revoke(id: string, ownerId: string, at: string): Promise<boolean> {
    return this.stmts.revoke.run(at, id, ownerId).changes === 1;
  }

  async revokeOthers(ownerId: string, keep: string | null, at: string): Promise<number> {
    return this.stmts.revokeOthers.run(at, ownerId, keep ?? '').changes;
  }

  async prune(before: string): Promise<void> {
    this.stmts.prune.run(before, before);
  }
}

/** Owners' console sessions in the `console_sessions` table. */
@injectable()
export class SqliteConsoleSessionRepository extends SqliteSessionTable {
  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    super(db, OWNER_SESSIONS);
  }
}

/** Members' Studio sessions in the `member_sessions` table (issue #26: members and roles). */
@injectable()
export class SqliteMemberSessionRepository extends SqliteSessionTable {
  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    super(db, MEMBER_SESSIONS);
  }
}
