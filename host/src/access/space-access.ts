import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../kernel/tokens.js';
import { apiError, type Permission } from '@cerebro/sdk';
import type { OwnerCaller, SpaceCaller } from './caller.js';
import { type MemberRepository, MemberRepositoryToken } from '../storage/port/member-repository.js';
import { roleAllows, roleNeeded, type MemberRole } from '../members/member-role.js';
import { ipAllowed } from './api-settings.js';
import type {
  AccessDirectory,
  SpaceAccess,
  SpaceAccessPolicy,
  SpaceAccessRequest,
  VisitorAccessRequest,
} from './access-services.js';
import type { SpaceRecord } from './records.js';

const DAY_MS = 86_400_000;
/** An account unpaid for more than this answers 402. */
export const UNPAID_GRACE_MS = 7 * DAY_MS;

/** Whether a caller (key or console) reaches a space at all: owner's space now, and in the key's list if it has one. */
export function reaches(caller: OwnerCaller, record: SpaceRecord | undefined): record is SpaceRecord {
  if (!record || record.row.owner_id !== caller.ownerId) return false;
  return caller.kind !== 'key' || caller.key.spaces.length === 0 || caller.key.spaces.includes(record.row.id);
}

/** The stricter of the key's permission and the owner's, on this space. */
export function effectivePermission(caller: OwnerCaller, record: SpaceRecord): Permission {
  if (caller.ownerReadOnly || record.row.owner_read_only === 1) return 'lee';
  return caller.kind === 'key' ? caller.key.permission : 'escribe';
}

/** A member's role and the permission it leaves them on the space, or the refusal of a role too low. */
function memberPermission(role: MemberRole, ownerReadOnly: boolean, request: SpaceAccessRequest): Permission {
  const needed = roleNeeded(request.permission, request.memberRole);
  if (!roleAllows(role, needed))
    throw apiError('role_insufficient', `Tu rol en este espacio (${role}) no permite esta operación.`);
  return ownerReadOnly || role === 'consulta' ? 'lee' : 'escribe';
}

/**
 * Decides whether the caller may use the space for this route, in the documented order:
 * reach (a member: their role there) → trial → payment → (keys only) API switch and IP list → module →
 * permission (a member: the route's role first). Throws the catalogue error of the first check that fails.
 */
@injectable()
export class SpaceAccessRules implements SpaceAccessPolicy {
  constructor(
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
    @inject(MemberRepositoryToken) private readonly members: MemberRepository,
  ) {}

  async authorize(caller: SpaceCaller, request: SpaceAccessRequest): Promise<SpaceAccess> {
    const record = await this.directory.space(request.spaceId, request.since);
    // A member's role is read afresh on every request: a change or removal applies to the very next one.
    const membership =
      caller.kind === 'member' && record ? await this.members.membership(caller.memberId, record.row.id) : undefined;
    if (!record || (caller.kind === 'member' ? !membership : !reaches(caller, record)))
      throw apiError('space_not_reachable');
    const { row } = record;

    if (row.trial_ends_at && Date.parse(row.trial_ends_at) <= request.now) throw apiError('trial_expired');

    const account = await this.directory.accountStanding(row.account_id, request.since);
    if (!account) throw apiError('space_not_reachable');
    const unpaidFor = account.unpaid_since ? request.now - Date.parse(account.unpaid_since) : 0;
    if (account.suspended === 1 || unpaidFor > UNPAID_GRACE_MS) throw apiError('payment_required');

    if (caller.kind === 'key') {
      if (row.api_enabled !== 1) throw apiError('api_disabled');
      if (!ipAllowed(record.settings, request.ip)) throw apiError('ip_not_allowed');
    }

    if (request.module && !record.modules.includes(request.module)) {
      throw apiError('module_disabled', request.moduleDisabledDetail);
    }

    const permission = membership
      ? memberPermission(membership.role, membership.ownerReadOnly || row.owner_read_only === 1, request)
      : effectivePermission(caller as OwnerCaller, record);
    if (request.permission === 'escribe' && permission !== 'escribe') throw apiError('read_only');

    const space = { id: row.id, accountId: row.account_id, modules: record.modules };
    return { space, record, permission, ...(membership ? { role: membership.role } : {}) };
  }

  async authorizeVisitor(request: VisitorAccessRequest): Promise<SpaceAccess> {
    const record = await this.directory.space(request.spaceId, request.since);
    if (!record) throw PAGE_NOT_FOUND();
    const { row } = record;
    if (row.trial_ends_at && Date.parse(row.trial_ends_at) <= request.now) throw PAGE_NOT_FOUND();
    const account = await this.directory.accountStanding(row.account_id, request.since);
    const unpaidFor = account?.unpaid_since ? request.now - Date.parse(account.unpaid_since) : 0;
    if (!account || account.suspended === 1 || unpaidFor > UNPAID_GRACE_MS) throw PAGE_NOT_FOUND();
    if (!record.modules.includes(request.module)) throw PAGE_NOT_FOUND();
    return { space: { id: row.id, accountId: row.account_id, modules: record.modules }, record, permission: 'lee' };
  }
}

/** What a visitor is told whatever stops a public page: nothing about the space or its account. */
const PAGE_NOT_FOUND = () => apiError('not_found', 'Página no encontrada.');
