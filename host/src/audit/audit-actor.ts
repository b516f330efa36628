import type { AuditActorKind } from '../storage/port/audit-log-repository.js';

/**
 * Who made a change, as the log keeps it. A `persona` is someone signed in to Studio: an owner, or a member
 * (`id` the member's id, `email` theirs).
 */
export interface AuditActor {
  kind: AuditActorKind;
  /** Owner or member id, key id, operator credential id (`cli` for the local command line). */
  id: string;
  email: string | null;
  /** A key's name. */
  name: string | null;
}
