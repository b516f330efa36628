import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { LoginRow } from '../../studio/studio-services.js';
import type { SqliteDatabase } from '../database.js';
import type { OwnerLoginRepository } from '../port/owner-login-repository.js';
import { prepareRevokeOthers } from './console-session-repository.js';
import { preparedOnUse } from './prepared-on-use.js';

/** Owners' sign-in data in the `owners` table. */
@injectable()
export class SqliteOwnerLoginRepository implements OwnerLoginRepository {
  private readonly stmts;

  constructor(@inject(HostTokens.Database) private readonly db: SqliteDatabase) {
    this.stmts = preparedOnUse({
      byId: () =>
        db.prepare<[string], LoginRow>(
          'SELECT id, name, email, password_digest, deleted_at FROM owners WHERE id = ? AND deleted_at IS NULL',
        ),
      byEmail: () =>
        db.prepare<[string], LoginRow>(
          'SELECT id, name, email, password_digest, deleted_at FROM owners WHERE email = ? AND deleted_at IS NULL',
        ),
      setEmail: () => db.prepare('UPDATE owners SET email = ? WHERE id = ?'),
      setName: () => db.prepare('UPDATE owners SET name = ? WHERE id = ?'),
      setPassword: () => db.prepare('UPDATE owners SET password_digest = ?, password_changed_at = ? WHERE id = ?'),
      revokeOthers: () => prepareRevokeOthers(db),
    });
  }

  async byId(ownerId: string): Promise<LoginRow | undefined> {
    return this.stmts.byId.get(ownerId);
  }

  async byEmail(email: string): Promise<LoginRow | undefined> {
    return this.stmts.byEmail.get(email);
  }

  async setEmail(ownerId: string, email: string): Promise<void> {
    this.stmts.setEmail.run(email, ownerId);
  }

  async setName(ownerId: string, name: string): Promise<void> {
    this.stmts.setName.run(name, ownerId);
  }

  async setPassword(ownerId: string, digest: string, at: string, keep: string | null): Promise<number> {
    return this.db
      .transaction(() => {
        this.stmts.setPassword.run(digest, at, ownerId);
        return this.stmts.revokeOthers.run(at, ownerId, keep ?? '').changes;
      })
      .immediate();
  }
}
