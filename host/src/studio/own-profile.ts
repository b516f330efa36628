import type { DependencyContainer } from 'tsyringe';
import { apiError, validationError } from '@cerebro/sdk';
import type { ConsoleCaller, MemberCaller } from '../access/caller.js';
import { resolveToken } from '../kernel/resolve.js';
import { HostTokens } from '../kernel/tokens.js';
import { emailIssue, normalizeEmail, passwordIssue, throwIssues } from './owner-credentials.js';
import type { OwnerProfile, SignedInPerson } from './studio-services.js';
import { personOf } from './studio-people.js';

/** The signed-in person's own profile (`GET /api/perfil`): an owner's or a member's, saying which. */
export interface OwnProfileView extends OwnerProfile {
  tipo: SignedInPerson['kind'];
}

/** What `PATCH /api/perfil` may change (its request schema). */
export interface ProfileChange {
  nombre?: string;
  email?: string;
  clave_actual?: string;
  clave_nueva?: string;
}

export interface OwnProfiles {
  read(caller: ConsoleCaller | MemberCaller): Promise<OwnProfileView>;
  /**
   * Applies a change to the caller's own profile: the profile as it is after it, and how many of their other
   * sessions a new password ended.
   */
  update(
    caller: ConsoleCaller | MemberCaller,
    change: ProfileChange,
    ip: string,
  ): Promise<OwnProfileView & { sesiones_cerradas: number }>;
}

/** 422 for a blank name or a password out of bounds; the email's own checks are each kind's. */
const changeIssues = (change: ProfileChange) => [
  change.clave_nueva === undefined ? null : passwordIssue('clave_nueva', change.clave_nueva),
  change.nombre !== undefined && change.nombre.trim() === ''
    ? { loc: ['body', 'nombre'], msg: 'No puede estar vacío.', type: 'string_length' }
    : null,
];

const currentPasswordMissing = (what: string) =>
  validationError([
    { loc: ['body', 'clave_actual'], msg: `Hace falta la contraseña actual para cambiar ${what}.`, type: 'missing' },
  ]);

/**
 * The profile of whoever signed in to Studio. Owners and members follow the same rules (a current password,
 * checked against the sign-in throttle, before a new password; a new password ends the person's other sessions),
 * with one difference: a member's email stays the one they were invited with. Several owners may have invited
 * that address, and each sees their member by it; no mail is sent to prove a new address is theirs.
 */
export function ownProfiles(container: DependencyContainer): OwnProfiles {
  const logins = resolveToken(container, HostTokens.Logins);
  const members = resolveToken(container, HostTokens.Members);
  const accounts = resolveToken(container, HostTokens.MemberAccounts);
  const signIn = resolveToken(container, HostTokens.SignIn);

  const read = async (caller: ConsoleCaller | MemberCaller): Promise<OwnProfileView> => {
    const person = personOf(caller);
    const profile = person.kind === 'miembro' ? await members.profile(person.id) : await logins.profile(person.id);
    return { ...profile, tipo: person.kind };
  };

  const updateOwner = async (caller: ConsoleCaller, change: ProfileChange, ip: string): Promise<number> => {
    throwIssues([change.email === undefined ? null : emailIssue('email', change.email), ...changeIssues(change)]);
    const sensitive = change.email !== undefined || change.clave_nueva !== undefined;
    if (sensitive && (await logins.profile(caller.ownerId)).tiene_clave) {
      if (change.clave_actual === undefined) throw currentPasswordMissing('el email o la contraseña');
      await signIn.verifyOwner(caller.ownerId, change.clave_actual, ip);
    }
    // The email first: it is the change that can still be refused (409), and nothing is stored before it.
    if (change.email !== undefined) await logins.setEmail(caller.ownerId, change.email);
    if (change.nombre !== undefined) await logins.setName(caller.ownerId, change.nombre.trim());
    if (change.clave_nueva === undefined) return 0;
    return (await logins.setPassword(caller.ownerId, change.clave_nueva, caller.sessionId, 'clave_nueva'))
      .sesiones_cerradas;
  };

  const updateMember = async (caller: MemberCaller, change: ProfileChange, ip: string): Promise<number> => {
    throwIssues(changeIssues(change));
    // Sending the email they have is no change (a client may send the whole profile back); any other is refused
    // before anything is stored.
    const { email } = await members.profile(caller.memberId);
    if (change.email !== undefined && normalizeEmail(change.email) !== email) throw apiError('member_email_fixed');
    if (change.clave_nueva !== undefined) {
      if (change.clave_actual === undefined) throw currentPasswordMissing('la contraseña');
      await signIn.verifyMember(caller.memberId, change.clave_actual, ip);
    }
    if (change.nombre !== undefined) await accounts.setName(caller.memberId, change.nombre.trim());
    if (change.clave_nueva === undefined) return 0;
    return accounts.setPassword(caller.memberId, change.clave_nueva, caller.sessionId, 'clave_nueva');
  };

  return {
    read,
    update: async (caller, change, ip) => {
      const closed =
        caller.kind === 'member' ? await updateMember(caller, change, ip) : await updateOwner(caller, change, ip);
      return { ...(await read(caller)), sesiones_cerradas: closed };
    },
  };
}
