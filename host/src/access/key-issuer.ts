import { inject, injectable } from 'tsyringe';
import { apiError, type Clock, type Permission } from '@cerebro/sdk';
import { HostTokens } from '../kernel/tokens.js';
import type { SqliteDatabase } from '../storage/database.js';
import type { AccessDirectory, CreatedKey, KeyIssuer } from './access-services.js';
import { issueCredential } from './credentials.js';
import type { LimitPair } from '../limits/limit-services.js';
import { NO_LIMITS, limitFields } from './key-limits.js';

/**
 * Issues API keys, for the owner (`POST /tokens`) and the operator (`cerebro admin`, `/api/admin`) alike: the
 * secret is shown once in the answer, only its digest is stored.
 */
@injectable()
export class SqliteKeyIssuer implements KeyIssuer {
  constructor(
    @inject(HostTokens.Database) private readonly db: SqliteDatabase,
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
    @inject(HostTokens.Clock) private readonly clock: Clock,
  ) {}

  issue(
    ownerId: string,
    name: string,
    spaces: string[],
    permission: Permission,
    createdByKey: string | null = null,
    limits: LimitPair = NO_LIMITS,
  ): CreatedKey {
    const distinct = [...new Set(spaces)];
    const owned = new Set(
      this.db
        .prepare<[string], { id: string }>('SELECT id FROM spaces WHERE owner_id = ?')
        .all(ownerId)
        .map((r) => r.id),
    );
    const foreign = distinct.filter((id) => !owned.has(id));
    if (foreign.length) throw apiError('not_found', `Espacios que no son de este propietario: ${foreign.join(', ')}.`);
    const credential = issueCredential('key');
    const created = new Date(this.clock.now()).toISOString();
    this.db
      .prepare(
        'INSERT INTO api_keys (id, owner_id, name, spaces, permission, secret_digest, created_by_key, created_at, rate_limit, daily_quota) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        credential.id,
        ownerId,
        name,
        JSON.stringify(distinct),
        permission,
        credential.digest,
        createdByKey,
        created,
        limits.perMinute,
        limits.daily,
      );
    this.directory.invalidate();
    return {
      id: credential.id,
      nombre: name,
      espacios: distinct,
      permiso: permission,
      creado: created,
      ...limitFields(limits),
      token: credential.token,
    };
  }
}
