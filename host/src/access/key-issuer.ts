import { inject, injectable } from 'tsyringe';
import { apiError, type Clock, type Permission } from '@cerebro/sdk';
import { HostTokens } from '../kernel/tokens.js';
import { type DirectoryRepository, DirectoryRepositoryToken } from '../storage/port/directory-repository.js';
import type { AccessDirectory, CreatedKey, KeyIssuer } from './access-services.js';
import { issueCredential } from './credentials.js';
import type { LimitPair } from '../limits/limit-services.js';
import { NO_LIMITS, limitFields } from './key-limits.js';

/**
 * Issues API keys, for the owner (`POST /tokens`) and the operator (`cerebro admin`, `/api/admin`) alike: the
 * secret is shown once in the answer, only its digest is stored.
 */
@injectable()
export class DirectoryKeyIssuer implements KeyIssuer {
  constructor(
    @inject(DirectoryRepositoryToken) private readonly repo: DirectoryRepository,
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
    @inject(HostTokens.Clock) private readonly clock: Clock,
  ) {}

  async issue(
    ownerId: string,
    name: string,
    spaces: string[],
    permission: Permission,
    createdByKey: string | null = null,
    limits: LimitPair = NO_LIMITS,
  ): Promise<CreatedKey> {
    const distinct = [...new Set(spaces)];
    const owned = new Set((await this.repo.ownerSpaces(ownerId)).map((s) => s.row.id));
    const foreign = distinct.filter((id) => !owned.has(id));
    if (foreign.length) throw apiError('not_found', `Espacios que no son de este propietario: ${foreign.join(', ')}.`);
    const credential = issueCredential('key');
    const created = new Date(this.clock.now()).toISOString();
    await this.repo.insertKey({
      id: credential.id,
      ownerId,
      name,
      spaces: distinct,
      permission,
      secretDigest: credential.digest,
      createdByKey,
      createdAt: created,
      rateLimit: limits.perMinute,
      dailyQuota: limits.daily,
    });
    await this.directory.invalidate();
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
