import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../kernel/tokens.js';
import { apiError } from '@cerebro/sdk';
import type { Caller, ConsoleCaller, MemberCaller } from './caller.js';
import { ProvenSecrets, parseBearer, parseCredential, secretMatches, type ParsedCredential } from './credentials.js';
import { csrfTokenFor } from './csrf.js';
import type { ConsoleSessions } from '../studio/studio-services.js';
import { clearedSessionCookie } from './session-cookie.js';
import type { AccessDirectory, Authenticator, ValueOrPromise } from './access-services.js';
import type { KeyCredential } from './records.js';

const isPromise = <T>(value: ValueOrPromise<T>): value is Promise<T> => value instanceof Promise;

/**
 * RFC 6750 section 3: a request without credentials gets the bare challenge; one with a credential that is
 * malformed, unknown, revoked or of a deleted owner gets `error="invalid_token"`. Frozen constants: the 401 path
 * allocates no header object of its own.
 */
const NO_CREDENTIAL_CHALLENGE = Object.freeze({ 'WWW-Authenticate': 'Bearer realm="cerebro"' });
const INVALID_TOKEN_CHALLENGE = Object.freeze({ 'WWW-Authenticate': 'Bearer realm="cerebro", error="invalid_token"' });
const invalidKey = () => apiError('invalid_key', undefined, INVALID_TOKEN_CHALLENGE);

/**
 * Turns the Authorization header into a caller, reading the credential, its owner and their state afresh on
 * every request: a revoked key or a deleted owner answers 401 from the very next request.
 */
/** A cookie that no longer opens a session is removed from the browser along with the 401. */
const expiredCookie = (secure: boolean) =>
  apiError('invalid_key', 'La sesión ha caducado o se cerró: vuelve a entrar.', {
    ...INVALID_TOKEN_CHALLENGE,
    'Set-Cookie': clearedSessionCookie(secure),
  });

/**
 * Turns the Authorization header (or the Studio session cookie) into a caller, reading the credential, its owner
 * and their state afresh on every request: a revoked key or session, or a deleted owner, answers 401 from the very
 * next request.
 */
@injectable()
export class CredentialAuthenticator implements Authenticator {
  private readonly keyCallers = new WeakMap<object, Caller>();
  /** Key and session secrets already proven against their memoised rows (see ProvenSecrets). */
  private readonly proven = new ProvenSecrets();

  constructor(
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
    @inject(HostTokens.Sessions) private readonly sessions: ConsoleSessions,
    @inject(HostTokens.MemberSessions) private readonly memberSessions: ConsoleSessions,
  ) {}

  authenticate(header: string | undefined, since?: number): ValueOrPromise<Caller> {
    if (!header) throw apiError('missing_key', undefined, NO_CREDENTIAL_CHALLENGE);
    const parsed = parseBearer(header);
    if (!parsed) {
      secretMatches('x'.repeat(43), undefined); // same work as a real check: malformed keys are not faster
      throw invalidKey();
    }
    if (parsed.kind === 'key') {
      const row = this.directory.keyCredential(parsed.id, since);
      return isPromise(row) ? row.then((r) => this.keyCaller(parsed, r)) : this.keyCaller(parsed, row);
    }
    if (parsed.kind === 'operator') return this.operatorCaller(parsed);
    return this.studioBearer(parsed);
  }

  private async studioBearer(parsed: ParsedCredential): Promise<Caller> {
    const caller = await this.studioCaller(parsed);
    if (!caller) throw invalidKey();
    return caller;
  }

  /** An owner's (`crs_`) or a member's (`crm_`) Studio session, or null. */
  private studioCaller(parsed: ParsedCredential): Promise<ConsoleCaller | MemberCaller | null> {
    return parsed.kind === 'member' ? this.memberCaller(parsed) : this.consoleCaller(parsed);
  }

  private async operatorCaller(parsed: ParsedCredential): Promise<Caller> {
    const row = await this.directory.operator(parsed.id);
    const valid = secretMatches(parsed.secret, row?.secret_digest);
    if (!row || !valid || row.revoked_at) throw invalidKey();
    return { kind: 'operator', operatorId: row.id };
  }

  /**
   * The caller of the Studio session cookie: only an owner's or a member's session is accepted there (a key or
   * operator credential pasted into the cookie is refused like an unknown one). A dead session's 401 clears it.
   */
  async authenticateCookie(value: string, secure: boolean): Promise<ConsoleCaller | MemberCaller> {
    const parsed = parseCredential(value);
    const studio = parsed?.kind === 'console' || parsed?.kind === 'member' ? parsed : null;
    if (!studio) secretMatches('x'.repeat(43), undefined); // the same work as a real check
    const caller = studio ? await this.studioCaller(studio) : null;
    if (!caller) throw expiredCookie(secure);
    return caller;
  }

  private keyCaller(parsed: ParsedCredential, row: KeyCredential | undefined): Caller {
    const valid = this.proven.matches(parsed.secret, row);
    if (!row || !valid || row.revoked_at || row.owner_deleted_at) throw invalidKey();
    // One frozen caller per memoised credential: a new one only after the credential itself was re-read.
    let caller = this.keyCallers.get(row);
    if (!caller) {
      caller = Object.freeze({
        kind: 'key' as const,
        ownerId: row.owner_id,
        ownerReadOnly: row.owner_read_only === 1,
        key: Object.freeze({
          id: row.id,
          ownerId: row.owner_id,
          name: row.name,
          spaces: row.spaces,
          permission: row.permission,
          limits: Object.freeze({ perMinute: row.rate_limit, daily: row.daily_quota }),
        }),
      });
      this.keyCallers.set(row, caller);
    }
    return caller;
  }

  /** A live console session's caller (its idle expiry pushed forward), or null. */
  private async consoleCaller(parsed: ParsedCredential): Promise<ConsoleCaller | null> {
    const row = await this.sessions.findWithOwner(parsed.id);
    const valid = this.proven.matches(parsed.secret, row);
    const now = this.sessions.now();
    if (!row || !valid || row.owner_deleted_at || !this.sessions.isLive(row, now)) return null;
    const expiresAt = await this.sessions.touch(row, now);
    return {
      kind: 'console',
      ownerId: row.owner_id,
      sessionId: row.id,
      ownerReadOnly: row.owner_read_only === 1,
      csrf: this.csrfOf(row.id, parsed.secret),
      expiresAt,
    };
  }

  /** A live member session's caller (its idle expiry pushed forward), or null. */
  private async memberCaller(parsed: ParsedCredential): Promise<MemberCaller | null> {
    const row = await this.memberSessions.findWithOwner(parsed.id);
    const valid = this.proven.matches(parsed.secret, row);
    const now = this.memberSessions.now();
    if (!row || !valid || row.owner_deleted_at || !this.memberSessions.isLive(row, now)) return null;
    const expiresAt = await this.memberSessions.touch(row, now);
    return {
      kind: 'member',
      memberId: row.owner_id,
      sessionId: row.id,
      csrf: this.csrfOf(`m${row.id}`, parsed.secret),
      expiresAt,
    };
  }

  /** CSRF tokens by session id (the secret was just verified): an HMAC per request saved, bounded in memory. */
  private readonly csrfTokens = new Map<string, string>();

  private csrfOf(sessionId: string, secret: string): string {
    let token = this.csrfTokens.get(sessionId);
    if (token === undefined) {
      if (this.csrfTokens.size >= 10_000) this.csrfTokens.clear();
      token = csrfTokenFor(secret);
      this.csrfTokens.set(sessionId, token);
    }
    return token;
  }
}
