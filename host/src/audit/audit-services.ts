import type { RequestContext } from '../http/request-context.js';
import type { HostRoute } from '../http/route.js';
import type { AuditEventRow, AuditFilter } from '../storage/port/audit-log-repository.js';
import type { AuditActor } from './audit-actor.js';

export type { AuditActor } from './audit-actor.js';

/** One change to record. `before`/`after`/`details` are stripped of secrets before they are stored. */
export interface AuditEntry {
  action: string;
  actor: AuditActor;
  target?: { kind: string; id: string } | null;
  ownerId?: string | null;
  spaceId?: string | null;
  ip?: string | null;
  requestId?: string | null;
  route?: string | null;
  before?: unknown;
  after?: unknown;
  details?: Record<string, unknown> | null;
}

/** The audit log as the rest of the host uses it. */
export interface AuditTrail {
  /** Stores one event. Never rejects: a failure is logged (the change it describes has already happened). */
  record(entry: AuditEntry): Promise<void>;
  /** Newest first, at most `limit`. */
  list(filter: AuditFilter, limit: number): Promise<AuditEventRow[]>;
  /** Deletes the events older than the configured retention (in one process at a time); how many went. */
  purgeExpired(): Promise<number>;
}

/** The pipeline's side of the audit log: what one route records after a successful write. */
export interface RouteAuditHook {
  /** Whether the route keeps its settings as they were before the change (its GET's answer). */
  readonly snapshots: boolean;
  /** The settings now, or null when there are none (404) or they cannot be read. */
  snapshot(ctx: RequestContext): Promise<unknown>;
  /**
   * Records the successful write; `before` is what `snapshot` read. Settles once the event is stored, and never
   * rejects: a failure is logged (the change happened whether or not its event could be written).
   */
  record(ctx: RequestContext, result: unknown, before: unknown): Promise<void>;
}

export interface RouteAuditing {
  /** The hook of a route, or undefined for a route that changes nothing (reads, `audit: false`). */
  hookFor(route: HostRoute, readBack?: HostRoute): RouteAuditHook | undefined;
}
