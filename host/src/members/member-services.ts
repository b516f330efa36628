// The members services' interfaces, which the host's tokens are typed by: the member routes, `GET /companies` and
// the invitation page depend on these shapes, not on the classes that implement them.
import type { Caller, KeyManager } from '../access/caller.js';
import type { SpaceRecord } from '../access/records.js';
import type { MemberRole } from './member-role.js';

/** A member of a space as its members page lists them. */
export interface MemberView {
  id: string;
  email: string;
  nombre: string;
  rol: MemberRole;
  desde: string;
}

/** A pending invitation (never its link: that is shown once, when it is made). */
export interface InvitationView {
  id: string;
  email: string;
  rol: MemberRole;
  creada: string;
  expira: string;
}

/** An invitation as made: its one-time link, to copy (no mail server is configured to send it). */
export interface CreatedInvitation extends InvitationView {
  enlace: string;
  enviada: boolean;
}

/** What the invitation page shows before it is accepted (reading it spends nothing). */
export interface InvitationPreview {
  email: string;
  rol: MemberRole;
  espacio: { id: string; nombre: string };
  expira: string;
  /** The email is already a member's: accepting asks for their password instead of setting one. */
  cuenta_existente: boolean;
}

/** The person an accepted invitation made a member, and where. */
export interface AcceptedInvitation {
  memberId: string;
  email: string;
  spaceId: string;
  ownerId: string;
  role: MemberRole;
}

/** A member's own profile in Studio (`propietario` of `/api/sesion` for a member's session). */
export interface MemberProfile {
  id: string;
  nombre: string;
  email: string;
  tiene_clave: true;
}

/**
 * A member's own sign-in data, as their Studio profile changes it: their name and their password. Their email is
 * not changed here: it is the address the owners of their spaces invited (`member_email_fixed`).
 */
export interface MemberAccounts {
  /** 404 when there is no such member. */
  setName(memberId: string, name: string): Promise<void>;
  /**
   * A new password (10 to 200 characters, `field` names it in a 422), stored as an owner's (scrypt); every other
   * session of the member ends (`keep`: the session making the change). How many ended.
   */
  setPassword(memberId: string, password: unknown, keep: string | null, field: string): Promise<number>;
}

/** The members and invitations of a space, as its owner and its `administra` members manage them. */
export interface SpaceMembers {
  list(spaceId: string): Promise<MemberView[]>;
  /** One member (404 `member_not_found`). */
  get(spaceId: string, memberId: string): Promise<MemberView>;
  /** A one-time link for `email` to join the space with `role`; `origin` is the service's public address. */
  invite(spaceId: string, email: string, role: MemberRole, origin: string): Promise<CreatedInvitation>;
  /** A new role, in force from the next request; the member's sessions end. */
  changeRole(spaceId: string, memberId: string, role: MemberRole): Promise<MemberView & { sesiones_cerradas: number }>;
  /** Out of the space from the next request; the member's sessions end. */
  remove(spaceId: string, memberId: string): Promise<{ sesiones_cerradas: number }>;
  pending(spaceId: string): Promise<InvitationView[]>;
  /** Withdraws a pending invitation (404 `invitation_not_found`). */
  revokeInvitation(spaceId: string, invitationId: string): Promise<void>;
  /** The spaces a member belongs to now (of any owner), with their role in each. */
  spacesOf(memberId: string): Promise<{ record: SpaceRecord; role: MemberRole }[]>;
  profile(memberId: string): Promise<MemberProfile>;
}

/** The public side of an invitation: reading it, and accepting it. */
export interface Invitations {
  /** 410 `invitation_invalid` when it is malformed, unknown, used, withdrawn or expired. */
  preview(token: string): Promise<InvitationPreview>;
  /**
   * Accepts it: a new member sets their name and password; one who exists gives their current password. 410 when
   * the invitation no longer works; 422 for a bad name or password; 403 / 429 for a wrong current password.
   */
  accept(token: string, answer: { nombre?: string; clave: string }, ip: string): Promise<AcceptedInvitation>;
}

/** Who manages keys on a request: the owner's caller itself, or an `administra` member's scope per owner. */
export interface KeyManagers {
  /** The caller's key managers (a member without `administra` anywhere: 403 `role_insufficient`). */
  of(caller: Caller): Promise<KeyManager[]>;
  /** The one a new key limited to `spaces` is created by. */
  forSpaces(managers: KeyManager[], spaces: readonly string[] | undefined): KeyManager;
  /** `work` with the first manager that reaches the key (404 `key_not_found` when none does). */
  reaching<T>(managers: KeyManager[], work: (manager: KeyManager) => Promise<T>): Promise<T>;
}
