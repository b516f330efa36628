import type { IncomingMessage } from 'node:http';
import type { DependencyContainer } from 'tsyringe';
import { Reply } from '@cerebro/sdk';
import type { ConsoleCaller, MemberCaller } from '../access/caller.js';
import { resolveToken } from '../kernel/resolve.js';
import { HostTokens } from '../kernel/tokens.js';
import { startBrowserSession, type StartedSession } from './session-start.js';
import type { ConsoleSessions, OwnerProfile, SessionOrigin, SignedInPerson } from './studio-services.js';

/** The person behind a Studio session's caller. */
export const personOf = (caller: ConsoleCaller | MemberCaller): SignedInPerson =>
  caller.kind === 'member' ? { kind: 'miembro', id: caller.memberId } : { kind: 'propietario', id: caller.ownerId };

/** What Studio's session routes need of the two kinds of person who sign in: owners and members. */
export interface StudioPeople {
  /** The sessions of that kind of person (`crs_` for owners, `crm_` for members). */
  sessions(person: SignedInPerson): ConsoleSessions;
  profile(person: SignedInPerson): Promise<OwnerProfile>;
  /**
   * Opens a browser session for a person who just proved who they are (`startBrowserSession`): whatever Studio
   * session the browser had before, an owner's or a member's, is ended.
   */
  start(req: IncomingMessage, person: SignedInPerson, origin: SessionOrigin, ip: string): Promise<StartedSession>;
  /** The 201 of a sign-in: who entered, the CSRF token, the expiry, and the cookie. */
  opened(person: SignedInPerson, started: StartedSession): Promise<Reply>;
}

export function studioPeople(container: DependencyContainer): StudioPeople {
  const sessions = resolveToken(container, HostTokens.Sessions);
  const memberSessions = resolveToken(container, HostTokens.MemberSessions);
  const logins = resolveToken(container, HostTokens.Logins);
  const members = resolveToken(container, HostTokens.Members);
  const profile = (person: SignedInPerson): Promise<OwnerProfile> =>
    person.kind === 'miembro' ? members.profile(person.id) : logins.profile(person.id);
  const config = resolveToken(container, HostTokens.Config);
  const sessionsOf = (person: SignedInPerson) => (person.kind === 'miembro' ? memberSessions : sessions);
  return {
    sessions: sessionsOf,
    profile,
    start: (req, person, origin, ip) =>
      startBrowserSession(req, person.id, origin, ip, sessionsOf(person), config, (kind) =>
        kind === 'member' ? memberSessions : sessions,
      ),
    opened: async (person, started) =>
      Reply.json(
        201,
        { tipo: person.kind, propietario: await profile(person), csrf: started.csrf, expira: started.expira },
        { 'Set-Cookie': started.cookie },
      ),
  };
}
