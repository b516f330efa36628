import type { AuditActorKind } from '../storage/port/audit-log-repository.js';

/**
 * Who made a change, as the log keeps it. A `persona` is an owner signed in to Studio today; once members exist
 * (issue #26 item 1) it is a member: `id` the member's id, `email` theirs, and nothing else changes here.
 */
export interface AuditActor {
  kind: AuditActorKind;
  /** Owner or member id, key id, operator credential id (`cli` for the local command line). */
  id: string;
  email: string | null;
  /** A key's name. */
  name: string | null;
}
