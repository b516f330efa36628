import { createToken } from '@cerebro/sdk';

/** Who made a change: a person in Studio, a key, or the platform operator. */
export type AuditActorKind = 'persona' | 'clave' | 'operador';

/** One audit event as stored. JSON columns are already serialized (and stripped of secrets) by the caller. */
export interface AuditEventRecord {
  /** ISO time of the change. */
  at: string;
  actorKind: AuditActorKind;
  /** Owner id (a member's once members exist), key id, or operator credential id (`cli` for the local CLI). */
  actorId: string;
  actorEmail: string | null;
  /** A key's name; the operator's label. */
  actorName: string | null;
  /** A stable dotted name: `clave.creada`, `marca.configuracion.modificada`. */
  action: string;
  targetKind: string | null;
  targetId: string | null;
  ownerId: string | null;
  spaceId: string | null;
  ip: string | null;
  requestId: string | null;
  /** `PATCH /companies/:espacio/api-config`; null for changes made outside HTTP (the CLI). */
  route: string | null;
  beforeJson: string | null;
  afterJson: string | null;
  detailsJson: string | null;
}

export interface AuditEventRow extends AuditEventRecord {
  /** The log's order and the reading cursor: larger is newer. */
  seq: number;
}

/** What a reading narrows the log to; every field set must hold. */
export interface AuditFilter {
  ownerId?: string;
  spaceId?: string;
  actorKind?: AuditActorKind;
  /** Matches the actor's id or email (case-insensitive for the email). */
  actor?: string;
  /** An exact action, or every action under a prefix ending in `.` (`clave.`). */
  action?: string;
  /** ISO times: events at or after `since`, strictly before `until`. */
  since?: string;
  until?: string;
  /** The cursor: only events older than this `seq`. */
  beforeSeq?: number;
}

/**
 * The audit log: appended to by the request pipeline and the few places it cannot see (sign-in, the CLI), read
 * newest first a page at a time.
 *
 * Guarantees: `append` gives each event a `seq` larger than every event appended before it returned; `list` answers
 * newest first, at most `limit` rows, each matching every filter field; `purgeBefore` deletes exactly the events
 * older than its time and says how many.
 */
export interface AuditLogRepository {
  append(event: AuditEventRecord): Promise<number>;
  list(filter: AuditFilter, limit: number): Promise<AuditEventRow[]>;
  purgeBefore(at: string): Promise<number>;
}

export const AuditLogRepositoryToken = createToken<AuditLogRepository>('host:audit-log-repository');
