import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import { issueCredential } from '../access/credentials.js';
import type { AccessDirectory } from '../access/access-services.js';
import type { HostConfig } from '../config/host-config.js';
import { HostTokens } from '../kernel/tokens.js';
import type { SqliteDatabase } from '../storage/database.js';
import type {
  ConsoleSessions,
  IssuedSession,
  SessionOrigin,
  SessionRow,
  SessionView,
  SessionWithOwner,
} from './studio-services.js';

/** Idle expiry is pushed forward at most once a minute per session: one write a minute, not one per request. */
const TOUCH_EVERY_MS = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const PRUNE_AFTER_MS = 30 * 86_400_000;

/**
 * Console (Studio) sessions: the `crs_` credentials. Each has an idle expiry (`expires_at`, pushed forward as it is
 * used) capped by an absolute one (`max_expires_at`), and remembers where it was opened for the owner's list.
 */
@injectable()
export class SqliteConsoleSessions implements ConsoleSessions {
  private readonly stmts;

  constructor(
    @inject(HostTokens.Database) db: SqliteDatabase,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(HostTokens.Config) private readonly config: HostConfig,
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
  ) {
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
      revokeOthers: db.prepare(
        'UPDATE console_sessions SET revoked_at = ? WHERE owner_id = ? AND id != ? AND revoked_at IS NULL',
      ),
      prune: db.prepare(
        'DELETE FROM console_sessions WHERE coalesce(revoked_at, max_expires_at, expires_at) < ? OR expires_at < ?',
      ),
    };
  }

  private prunedAt = 0;

  /**
   * Rows of sessions that ended more than 30 days ago are deleted (the owner's list only shows open ones; a month
   * of closed ones is kept for an operator looking into something). At most once an hour, on sign-in.
   */
  private pruneNow(now: number): void {
    if (now - this.prunedAt < 3_600_000) return;
    this.prunedAt = now;
    const before = iso(now - PRUNE_AFTER_MS);
    this.stmts.prune.run(before, before);
  }

  now(): number {
    return this.clock.now();
  }

  /** Opens a session for an owner. The user agent and IP are kept (cut short) only to show in the owner's list. */
  issue(ownerId: string, origin: SessionOrigin, seen: { userAgent?: string; ip?: string } = {}): IssuedSession {
    const credential = issueCredential('console');
    const now = this.clock.now();
    this.pruneNow(now);
    const max = now + this.config.sessionMaxMs;
    const expires = Math.min(now + this.config.sessionIdleMs, max);
    this.stmts.insert.run(
      credential.id,
      ownerId,
      credential.digest,
      iso(now),
      iso(expires),
      iso(max),
      iso(now),
      seen.userAgent?.slice(0, 200) ?? null,
      seen.ip?.slice(0, 64) ?? null,
      origin,
    );
    this.directory.invalidate();
    return { id: credential.id, token: credential.token, expira: iso(expires) };
  }

  find(id: string): SessionRow | undefined {
    return this.stmts.find.get(id);
  }
  findWithOwner(id: string): SessionWithOwner | undefined {
    return this.stmts.withOwner.get(id);
  }

  /** Not revoked and within both expiries. */
  isLive(row: SessionRow, now: number): boolean {
    if (row.revoked_at) return false;
    const at = iso(now);
    return (row.expires_at === null || row.expires_at > at) && (row.max_expires_at === null || row.max_expires_at > at);
  }

  /** A request on the session: pushes its idle expiry forward (at most once a minute). Returns the expiry in force. */
  touch(row: SessionRow, now: number): string | null {
    if (row.expires_at === null) return null;
    const seen = row.last_seen_at ? Date.parse(row.last_seen_at) : 0;
    if (now - seen < TOUCH_EVERY_MS) return row.expires_at;
    const max = row.max_expires_at ? Date.parse(row.max_expires_at) : Number.POSITIVE_INFINITY;
    const expires = iso(Math.min(now + this.config.sessionIdleMs, max));
    this.stmts.touch.run(iso(now), expires, row.id);
    return expires;
  }

  /** The owner's sessions still open, newest first; `current` marks the one asking. */
  list(ownerId: string, current: string | undefined): SessionView[] {
    const now = this.clock.now();
    return this.stmts.active
      .all(ownerId, iso(now))
      .filter((row) => this.isLive(row, now))
      .map((row) => ({
        id: row.id,
        creada: row.created_at,
        ultimo_uso: row.last_seen_at,
        expira: row.expires_at,
        origen: row.origin,
        agente: row.user_agent,
        ip: row.ip,
        actual: row.id === current,
      }));
  }

  /** Ends one of the owner's sessions (404 when it is not theirs or already ended). */
  revoke(ownerId: string, id: string): void {
    const row = /^[0-9a-f]{16}$/.test(id) ? this.find(id) : undefined;
    if (!row || row.owner_id !== ownerId || !this.isLive(row, this.clock.now())) throw apiError('session_not_found');
    this.stmts.revoke.run(iso(this.clock.now()), id, ownerId);
  }

  /** Ends the session if it is still open, whoever's it is (a sign-in replacing the browser's previous session). */
  end(id: string): void {
    const row = this.find(id);
    if (row) this.stmts.revoke.run(iso(this.clock.now()), id, row.owner_id);
  }

  /** Ends every session of the owner but `keep` (after a password change); all of them when `keep` is null. */
  revokeOthers(ownerId: string, keep: string | null): number {
    return this.stmts.revokeOthers.run(iso(this.clock.now()), ownerId, keep ?? '').changes;
  }
}
