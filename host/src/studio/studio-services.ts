// Studio's services' interfaces, which the host's tokens are typed by: the authenticator, the operator's actions
// and the console routes depend on these shapes, not on the classes that implement them.

/** How a session was opened: password, one-time link, or issued by the operator (a Bearer credential for scripts). */
export type SessionOrigin = 'clave' | 'enlace' | 'operador';

export interface SessionRow {
  id: string;
  owner_id: string;
  secret_digest: Buffer;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
  max_expires_at: string | null;
  last_seen_at: string | null;
  user_agent: string | null;
  ip: string | null;
  origin: SessionOrigin;
}

/** A session with its owner's state, read in one query on every console request. */
export interface SessionWithOwner extends SessionRow {
  owner_read_only: number;
  owner_deleted_at: string | null;
}

/** A session as the owner sees it in `GET /api/sesiones`. */
export interface SessionView {
  id: string;
  creada: string;
  ultimo_uso: string | null;
  expira: string | null;
  origen: SessionOrigin;
  agente: string | null;
  ip: string | null;
  actual: boolean;
}

export interface IssuedSession {
  id: string;
  token: string;
  expira: string;
}

/** Console (Studio) sessions: the `crs_` credentials, with an idle expiry capped by an absolute one. */
export interface ConsoleSessions {
  now(): number;
  /** Opens a session for an owner. The user agent and IP are kept (cut short) only to show in the owner's list. */
  issue(ownerId: string, origin: SessionOrigin, seen?: { userAgent?: string; ip?: string }): Promise<IssuedSession>;
  find(id: string): Promise<SessionRow | undefined>;
  findWithOwner(id: string): Promise<SessionWithOwner | undefined>;
  /** Not revoked and within both expiries. */
  isLive(row: SessionRow, now: number): boolean;
  /** A request on the session: pushes its idle expiry forward (at most once a minute). Returns the expiry in force. */
  touch(row: SessionRow, now: number): Promise<string | null>;
  /** The owner's sessions still open, newest first; `current` marks the one asking. */
  list(ownerId: string, current: string | undefined): Promise<SessionView[]>;
  /** Ends one of the owner's sessions (404 when it is not theirs or already ended). */
  revoke(ownerId: string, id: string): Promise<void>;
  /** Ends every open session of the person at once (a member removed or given another role); how many. */
  endAll(personId: string): Promise<number>;
  /** Ends the session if it is still open, whoever's it is (a sign-in replacing the browser's previous session). */
  end(id: string): Promise<void>;
}

export interface LoginRow {
  id: string;
  name: string;
  email: string | null;
  password_digest: string | null;
  deleted_at: string | null;
}

/** The owner as Studio shows it (`propietario` of `/api/sesion`, `/api/perfil`). */
export interface OwnerProfile {
  id: string;
  nombre: string;
  email: string | null;
  tiene_clave: boolean;
}

/** An owner's sign-in data: email (unique, case-insensitive) and password digest. */
export interface OwnerLogins {
  byEmail(email: string): Promise<LoginRow | undefined>;
  profile(ownerId: string): Promise<OwnerProfile>;
  /**
   * A new email for the owner (422 malformed, 409 another owner's or a member's, 404 no such owner). Returns it as
   * stored.
   */
  setEmail(ownerId: string, email: unknown, field?: string): Promise<string>;
  /**
   * Refuses (409 `email_taken`) a normalised email that another owner than `ownerId` or any member signs in with: one
   * email, one person, or sign-in would let one of them in and lock the other out.
   */
  assertEmailFree(email: string, ownerId: string | null): Promise<void>;
  setName(ownerId: string, name: string): Promise<void>;
  /**
   * Sets the owner's password and ends their other sessions (`keep`: the session making the change, if any).
   * Without a password given (`undefined`), a strong one is generated and returned once.
   */
  setPassword(
    ownerId: string,
    password: unknown,
    keep: string | null,
    field?: string,
  ): Promise<{ clave?: string; sesiones_cerradas: number }>;
  /** Whether `password` is the owner's current one (false without a password set). */
  checkPassword(ownerId: string, password: string): Promise<boolean>;
}

/** One-time sign-in links the operator hands to an owner. */
export interface SignInLinks {
  /** A new link token for an existing owner, and when it expires. */
  issue(ownerId: string): Promise<{ token: string; expira: string }>;
  /** The owner the link signs in, consuming it; null when it is malformed, unknown, used, expired or its owner gone. */
  consume(token: unknown): Promise<string | null>;
}

/** Who a sign-in opened Studio for: an owner, or a member of some owners' spaces. */
export interface SignedInPerson {
  kind: 'propietario' | 'miembro';
  id: string;
}

/** Email and password sign-in, limited per email and per IP. */
export interface SignIn {
  /** The owner (else the member) these credentials sign in, or a 401 / 429. */
  verify(email: string, password: string, ip: string): Promise<SignedInPerson>;
  /** The current password of a signed-in owner, checked against the same limits before a change of email or password. */
  verifyOwner(ownerId: string, password: string, ip: string): Promise<void>;
  /** A member's current password (to accept an invitation into another space), against the same limits. */
  verifyMember(memberId: string, password: string, ip: string): Promise<void>;
}
