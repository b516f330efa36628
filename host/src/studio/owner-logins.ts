import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import type { AccessDirectory } from '../access/access-services.js';
import { HostTokens } from '../kernel/tokens.js';
import type { SqliteDatabase } from '../storage/database.js';
import type { ConsoleSessions, LoginRow, OwnerLogins, OwnerProfile } from './studio-services.js';
import { emailIssue, normalizeEmail, passwordIssue, throwIssues } from './owner-credentials.js';
import { hashPassword, passwordMatches } from './password-digest.js';

/**
 * An owner's sign-in data: email (unique, case-insensitive) and password digest. Used by the operator (HTTP and
 * CLI) and by the owner's own profile, so both apply the same rules (`owner-credentials.ts`).
 */
@injectable()
export class SqliteOwnerLogins implements OwnerLogins {
  private readonly stmts;

  constructor(
    @inject(HostTokens.Database) private readonly db: SqliteDatabase,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
    @inject(HostTokens.Sessions) private readonly sessions: ConsoleSessions,
  ) {
    this.stmts = {
      byId: db.prepare<[string], LoginRow>(
        'SELECT id, name, email, password_digest, deleted_at FROM owners WHERE id = ? AND deleted_at IS NULL',
      ),
      byEmail: db.prepare<[string], LoginRow>(
        'SELECT id, name, email, password_digest, deleted_at FROM owners WHERE email = ? AND deleted_at IS NULL',
      ),
      setEmail: db.prepare('UPDATE owners SET email = ? WHERE id = ?'),
      setName: db.prepare('UPDATE owners SET name = ? WHERE id = ?'),
      setPassword: db.prepare('UPDATE owners SET password_digest = ?, password_changed_at = ? WHERE id = ?'),
    };
  }

  byEmail(email: string): LoginRow | undefined {
    return this.stmts.byEmail.get(normalizeEmail(email));
  }

  private require(ownerId: string): LoginRow {
    const row = this.stmts.byId.get(ownerId);
    if (!row) throw apiError('not_found', 'Propietario no encontrado.');
    return row;
  }

  profile(ownerId: string): OwnerProfile {
    const row = this.require(ownerId);
    return { id: row.id, nombre: row.name, email: row.email, tiene_clave: row.password_digest !== null };
  }

  /** A new email for the owner (422 malformed, 409 another owner's, 404 no such owner). Returns it as stored. */
  setEmail(ownerId: string, email: unknown, field = 'email'): string {
    throwIssues([emailIssue(field, email)]);
    this.require(ownerId);
    const normalized = normalizeEmail(email as string);
    const other = this.stmts.byEmail.get(normalized);
    if (other && other.id !== ownerId) throw apiError('email_taken');
    this.stmts.setEmail.run(normalized, ownerId);
    this.directory.invalidate();
    return normalized;
  }

  setName(ownerId: string, name: string): void {
    this.require(ownerId);
    this.stmts.setName.run(name, ownerId);
    this.directory.invalidate();
  }

  /**
   * Sets the owner's password and ends their other sessions (`keep`: the session making the change, if any).
   * Without a password given (`undefined`), a strong one is generated and returned once.
   */
  async setPassword(
    ownerId: string,
    password: unknown,
    keep: string | null,
    field = 'clave',
  ): Promise<{ clave?: string; sesiones_cerradas: number }> {
    const generated = password === undefined ? randomBytes(15).toString('base64url') : undefined;
    const chosen = generated ?? password;
    throwIssues([passwordIssue(field, chosen)]);
    this.require(ownerId);
    const digest = await hashPassword(chosen as string);
    const closed = this.db.transaction(() => {
      this.stmts.setPassword.run(digest, new Date(this.clock.now()).toISOString(), ownerId);
      return this.sessions.revokeOthers(ownerId, keep);
    })();
    this.directory.invalidate();
    return { ...(generated ? { clave: generated } : {}), sesiones_cerradas: closed };
  }

  /** Whether `password` is the owner's current one (false without a password set). */
  async checkPassword(ownerId: string, password: string): Promise<boolean> {
    return passwordMatches(password, this.require(ownerId).password_digest);
  }
}
