// Owners' sign-in data on PostgreSQL: storage/sqlite/owner-login-repository.ts's statements.
import { inject, injectable } from 'tsyringe';
import type { LoginRow } from '../../studio/studio-services.js';
import type { OwnerLoginRepository } from '../port/owner-login-repository.js';
import { revokeOtherSessions } from './pg-console-session-repository.js';
import { inTransaction, type Pool, pgQuery } from './pg-driver.js';
import { PgPoolToken } from './pg-pool-token.js';

const LOGIN = 'SELECT id, name, email, password_digest, deleted_at FROM owners';

@injectable()
export class PgOwnerLoginRepository implements OwnerLoginRepository {
  constructor(@inject(PgPoolToken) private readonly pool: Pool) {}

  async byId(ownerId: string): Promise<LoginRow | undefined> {
    return (await pgQuery<LoginRow>(this.pool, `${LOGIN} WHERE id = $1 AND deleted_at IS NULL`, [ownerId])).rows[0];
  }

  async byEmail(email: string): Promise<LoginRow | undefined> {
    return (await pgQuery<LoginRow>(this.pool, `${LOGIN} WHERE email = $1 AND deleted_at IS NULL`, [email])).rows[0];
  }

  async setEmail(ownerId: string, email: string): Promise<void> {
    await pgQuery(this.pool, 'UPDATE owners SET email = $1 WHERE id = $2', [email, ownerId]);
  }

  async setName(ownerId: string, name: string): Promise<void> {
    await pgQuery(this.pool, 'UPDATE owners SET name = $1 WHERE id = $2', [name, ownerId]);
  }

  setPassword(ownerId: string, digest: string, at: string, keep: string | null): Promise<number> {
    // One transaction: no old session outlives the change, whichever host serves it next.
    return inTransaction(this.pool, async (client) => {
      await client.query('UPDATE owners SET password_digest = $1, password_changed_at = $2 WHERE id = $3', [
        digest,
        at,
        ownerId,
      ]);
      return revokeOtherSessions(this.pool, ownerId, keep, at);
    });
  }
}
