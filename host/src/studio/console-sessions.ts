import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import { type CredentialKind, issueCredential } from '../access/credentials.js';
import type { AccessDirectory } from '../access/access-services.js';
import type { HostConfig } from '../config/host-config.js';
import { HostTokens } from '../kernel/tokens.js';
import {
  type ConsoleSessionRepository,
  ConsoleSessionRepositoryToken,
  MemberSessionRepositoryToken,
} from '../storage/port/console-session-repository.js';
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
export class ConsoleSessionService implements ConsoleSessions {
  constructor(
    @inject(ConsoleSessionRepositoryToken) private readonly repo: ConsoleSessionRepository,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(HostTokens.Config) private readonly config: HostConfig,
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
  ) {}

  private prunedAt = 0;
  /** The credential these sessions are: owners' `crs_`. */
  protected readonly credentialKind: CredentialKind = 'console';

  /**
   * Rows of sessions that ended more than 30 days ago are deleted (the owner's list only shows open ones; a month
   * of closed ones is kept for an operator looking into something). At most once an hour, on sign-in.
   */
  private async pruneNow(now: number): Promise<void> {
    if (now - this.prunedAt < 3_600_000) return;
    this.prunedAt = now;
    await this.repo.prune(iso(now - PRUNE_AFTER_MS));
  }

  now(): number {
    return this.clock.now();
  }

  /** Opens a session for an owner. The user agent and IP are kept (cut short) only to show in the owner's list. */
  async issue(
    ownerId: string,
    origin: SessionOrigin,
    seen: { userAgent?: string; ip?: string } = {},
  ): Promise<IssuedSession> {
    const credential = issueCredential(this.credentialKind);
    const now = this.clock.now();
    await this.pruneNow(now);
    const max = now + this.config.sessionMaxMs;
    const expires = Math.min(now + this.config.sessionIdleMs, max);
    await this.repo.insert({
      id: credential.id,
      ownerId,
      secretDigest: credential.digest,
      createdAt: iso(now),
      expiresAt: iso(expires),
      maxExpiresAt: iso(max),
      userAgent: seen.userAgent?.slice(0, 200) ?? null,
      ip: seen.ip?.slice(0, 64) ?? null,
      origin,
    });
    await this.directory.invalidate();
    return { id: credential.id, token: credential.token, expira: iso(expires) };
  }

  find(id: string): Promise<SessionRow | undefined> {
    return this.repo.find(id);
  }
  /**
   * Read on every console request: memoised with the directory's keys and spaces (a point read of a joined row was
   * over a third of a cookie request's CPU), so it goes stale exactly when they do. Every revocation invalidates the
   * directory; the idle expiry this process pushes forward is written into the memoised row by `touch`.
   */
  findWithOwner(id: string): Promise<SessionWithOwner | undefined> {
    return Promise.resolve(
      this.directory.consoleSession(`${this.credentialKind}:${id}`, () => this.repo.findWithOwner(id)),
    );
  }

  /** Not revoked and within both expiries. */
  isLive(row: SessionRow, now: number): boolean {
    if (row.revoked_at) return false;
    const at = iso(now);
    return (row.expires_at === null || row.expires_at > at) && (row.max_expires_at === null || row.max_expires_at > at);
  }

  /** A request on the session: pushes its idle expiry forward (at most once a minute). Returns the expiry in force. */
  async touch(row: SessionRow, now: number): Promise<string | null> {
    if (row.expires_at === null) return null;
    const seen = row.last_seen_at ? Date.parse(row.last_seen_at) : 0;
    if (now - seen < TOUCH_EVERY_MS) return row.expires_at;
    const max = row.max_expires_at ? Date.parse(row.max_expires_at) : Number.POSITIVE_INFINITY;
    const expires = iso(Math.min(now + this.config.sessionIdleMs, max));
    const seenAt = iso(now);
    await this.repo.touch(row.id, seenAt, expires);
    // The row may be the memoised one: it now says what was stored, so the next minute's requests do not write.
    row.last_seen_at = seenAt;
    row.expires_at = expires;
    return expires;
  }

  /** The owner's sessions still open, newest first; `current` marks the one asking. */
  async list(ownerId: string, current: string | undefined): Promise<SessionView[]> {
    const now = this.clock.now();
    return (await this.repo.active(ownerId, iso(now)))
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
  async revoke(ownerId: string, id: string): Promise<void> {
    const row = /^[0-9a-f]{16}$/.test(id) ? await this.find(id) : undefined;
    if (!row || row.owner_id !== ownerId || !this.isLive(row, this.clock.now())) throw apiError('session_not_found');
    await this.repo.revoke(id, ownerId, iso(this.clock.now()));
    await this.directory.invalidate();
  }

  /** Ends every open session of the person at once (a member removed or given another role); how many. */
  async endAll(personId: string): Promise<number> {
    const ended = await this.repo.revokeOthers(personId, null, iso(this.clock.now()));
    await this.directory.invalidate();
    return ended;
  }

  /** Ends the session if it is still open, whoever's it is (a sign-in replacing the browser's previous session). */
  async end(id: string): Promise<void> {
    const row = await this.find(id);
    if (!row) return;
    await this.repo.revoke(id, row.owner_id, iso(this.clock.now()));
    await this.directory.invalidate();
  }
}

/**
 * Members' Studio sessions (the `crm_` credentials, table `member_sessions`): the owners' rules of expiry, listing
 * and revocation, where the person is a member (`ownerId` of each method is the member's id).
 */
@injectable()
export class MemberSessionService extends ConsoleSessionService {
  protected override readonly credentialKind: CredentialKind = 'member';

  constructor(
    @inject(MemberSessionRepositoryToken) repo: ConsoleSessionRepository,
    @inject(HostTokens.Clock) clock: Clock,
    @inject(HostTokens.Config) config: HostConfig,
    @inject(HostTokens.Directory) directory: AccessDirectory,
  ) {
    super(repo, clock, config, directory);
  }
}
