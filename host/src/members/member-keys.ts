import { inject, injectable } from 'tsyringe';
import { ApiError, apiError } from '@cerebro/sdk';
import type { AccessDirectory } from '../access/access-services.js';
import type { Caller, KeyManager, MemberKeyScope, OwnerCaller } from '../access/caller.js';
import { HostTokens } from '../kernel/tokens.js';
import { type MemberRepository, MemberRepositoryToken } from '../storage/port/member-repository.js';
import type { KeyManagers } from './member-services.js';

/**
 * Keys stay owner-level: an owner (key or console session) manages their own; a member manages an owner's keys
 * only as `administra`, one scope per owner whose spaces they administer, limited to those spaces (read afresh
 * from their roles on every request). `edita` and `consulta` members get `403 role_insufficient`.
 */
@injectable()
export class MemberKeyManagers implements KeyManagers {
  constructor(
    @inject(MemberRepositoryToken) private readonly repo: MemberRepository,
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
  ) {}

  async of(caller: Caller): Promise<KeyManager[]> {
    if (caller.kind !== 'member') return [caller as OwnerCaller];
    const byOwner = new Map<string, MemberKeyScope & { spaces: string[] }>();
    for (const { spaceId, role } of await this.repo.memberships(caller.memberId)) {
      if (role !== 'administra') continue;
      const ownerId = (await this.directory.space(spaceId))?.row.owner_id;
      if (!ownerId) continue;
      const scope = byOwner.get(ownerId) ?? {
        kind: 'member' as const,
        memberId: caller.memberId,
        ownerId,
        ownerReadOnly: (await this.repo.membership(caller.memberId, spaceId))?.ownerReadOnly ?? false,
        spaces: [],
      };
      scope.spaces.push(spaceId);
      byOwner.set(ownerId, scope);
    }
    if (byOwner.size === 0)
      throw apiError(
        'role_insufficient',
        'Las claves las gestiona el propietario, o un miembro con rol administra en alguno de sus espacios.',
      );
    return [...byOwner.values()];
  }

  /** The manager whose owner the named spaces are (a member's first scope when none is: the service refuses then). */
  forSpaces(managers: KeyManager[], spaces: readonly string[] | undefined): KeyManager {
    const named = spaces ?? [];
    return (
      managers.find((m) => m.kind === 'member' && named.length > 0 && named.every((id) => m.spaces.includes(id))) ??
      managers[0]!
    );
  }

  /** `work` with the first manager that reaches the key (404 `key_not_found` when none does). */
  async reaching<T>(managers: KeyManager[], work: (manager: KeyManager) => Promise<T>): Promise<T> {
    let missing: unknown;
    for (const manager of managers) {
      try {
        return await work(manager);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 'key_not_found')) throw err;
        missing = err;
      }
    }
    throw missing;
  }
}
