import type { AuditActorKind, AuditEventRecord, AuditEventRow } from '../port/audit-log-repository.js';

/** A row of `audit_log` as both backends read it (the same columns in migration 0018 and its twin). */
export interface AuditLogRow {
  seq: number;
  at: string;
  actor_kind: AuditActorKind;
  actor_id: string;
  actor_email: string | null;
  actor_name: string | null;
  action: string;
  target_kind: string | null;
  target_id: string | null;
  owner_id: string | null;
  space_id: string | null;
  ip: string | null;
  request_id: string | null;
  route: string | null;
  before_json: string | null;
  after_json: string | null;
  details_json: string | null;
}

export const auditEventFromRow = (r: AuditLogRow): AuditEventRow => ({
  seq: r.seq,
  at: r.at,
  actorKind: r.actor_kind,
  actorId: r.actor_id,
  actorEmail: r.actor_email,
  actorName: r.actor_name,
  action: r.action,
  targetKind: r.target_kind,
  targetId: r.target_id,
  ownerId: r.owner_id,
  spaceId: r.space_id,
  ip: r.ip,
  requestId: r.request_id,
  route: r.route,
  beforeJson: r.before_json,
  afterJson: r.after_json,
  detailsJson: r.details_json,
});

/** The values of an insert, in the column order both backends' statements list. */
export const auditInsertValues = (e: AuditEventRecord): unknown[] => [
  e.at,
  e.actorKind,
  e.actorId,
  e.actorEmail,
  e.actorName,
  e.action,
  e.targetKind,
  e.targetId,
  e.ownerId,
  e.spaceId,
  e.ip,
  e.requestId,
  e.route,
  e.beforeJson,
  e.afterJson,
  e.detailsJson,
];

export const AUDIT_INSERT_COLUMNS =
  'at, actor_kind, actor_id, actor_email, actor_name, action, target_kind, target_id, owner_id, space_id, ip, request_id, route, before_json, after_json, details_json';
