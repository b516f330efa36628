import type { Statement } from 'better-sqlite3';
import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SessionRow, SessionWithOwner } from '../../studio/studio-services.js';
import type { SqliteDatabase } from '../database.js';
import type { ConsoleSessionRepository, NewSessionRecord } from '../port/console-session-repository.js';

/**
 * Revoking every open session of an owner but one: prepared by the session repository and by the owner-login one,
 * whose password change runs it in its own transaction. Parameters: revoked at, owner id, session kept ('' none).
 */
export function prepareRevokeOthers(db: SqliteDatabase): Statement<[string, string, string]> {
  return db.prepare<[string, string, string]>(
    'UPDATE console_sessions SET revoked_at = ? WHERE owner_id = ? AND id != ? AND revoked_at IS NULL',
  );
}

/** Console sessions in the `console_sessions` table. */
@injectable()
export class SqliteConsoleSessionRepository implements ConsoleSessionRepository {
  private readonly stmts;

  constructor(@inject(HostTokens.Database) db: SqliteDatabase) {
    this.stmts = {
      find: db.prepare<[string], SessionRow>('SELECT * FROM console_sessions WHERE id = ?'),
      withOwner: db.prepare<[string], SessionWithOwner>(
        'SELECT s.*, o.read_only AS owner_read_only, o.deleted_at AS owner_deleted_at FROM console_sessions s JOIN owners o ON o.id = s.owner_id WHERE s.id = ?',
      ),
      insert:
        db.prepare(`INSERT INTO console_sessions (id, owner_id, secret_digest, created_at, expires_at, max_expires_at, last_seen_at, user_agent, ip, origin)
                          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      touch: db.prepare(
        'UPDATE console_sessions SET last_seen_at = ?, expires_at = ? WHERE id = ? AND revoked_at IS NULL',
      ),
      active: db.prepare<[string, string], SessionRow>(
        'SELECT * FROM console_sessions WHERE owner_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at DESC, id',
      ),
      revoke: db.prepare(
        'UPDATE console_sessions SET revoked_at = ? WHERE id = ? AND owner_id = ? AND revoked_at IS NULL',
      ),
      revokeOthers: prepareRevokeOthers(db),
      prune: db.prepare(
        'DELETE FROM console_sessions WHERE coalesce(revoked_at, max_expires_at, expires_at) < ? OR expires_at < ?',
      ),
    };
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
