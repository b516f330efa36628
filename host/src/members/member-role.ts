import type { Permission } from '@cerebro/sdk';
import type { MemberRole } from '../storage/port/member-repository.js';

export type { MemberRole } from '../storage/port/member-repository.js';

/** The roles from the least to the most: each allows everything the ones before it do. */
export const MEMBER_ROLES: readonly MemberRole[] = ['consulta', 'edita', 'administra'];

/** Whether `role` allows what `needed` does. */
export const roleAllows = (role: MemberRole, needed: MemberRole): boolean =>
  MEMBER_ROLES.indexOf(role) >= MEMBER_ROLES.indexOf(needed);

/**
 * The least role a route needs of a member: what it declares (`memberRole`), else `edita` to write and
 * `consulta` to read. Plugins' routes declare only a permission, so a module's writes are `edita`'s.
 */
export const roleNeeded = (permission: Permission, declared: MemberRole | undefined): MemberRole =>
  declared ?? (permission === 'escribe' ? 'edita' : 'consulta');
