import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type {
  AuditActorKind,
  AuditEventRecord,
  AuditEventRow,
  AuditFilter,
  AuditLogRepository,
} from '../port/audit-log-repository.js';

interface Row {
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

const fromRow = (r: Row): AuditEventRow => ({
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

/** The audit log in the `audit_log` table. Filters are built from fixed fragments; every value is a parameter. */
@injectable()
export class SqliteAuditLogRepository implements AuditLogRepository {
  private readonly insert;
  private readonly purge;

  constructor(@inject(HostTokens.Database) private readonly db: SqliteDatabase) {
    this.insert = db.prepare(
      `INSERT INTO audit_log (at, actor_kind, actor_id, actor_email, actor_name, action, target_kind, target_id,
         owner_id, space_id, ip, request_id, route, before_json, after_json, details_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.purge = db.prepare('DELETE FROM audit_log WHERE at < ?');
  }

  async append(e: AuditEventRecord): Promise<number> {
    const { lastInsertRowid } = this.insert.run(
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
    );
    return Number(lastInsertRowid);
  }

  async list(filter: AuditFilter, limit: number): Promise<AuditEventRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, ...values: unknown[]) => {
      where.push(clause);
      params.push(...values);
    };
    if (filter.ownerId !== undefined) add('owner_id = ?', filter.ownerId);
    if (filter.spaceId !== undefined) add('space_id = ?', filter.spaceId);
    if (filter.actorKind !== undefined) add('actor_kind = ?', filter.actorKind);
    if (filter.actor !== undefined) add('(actor_id = ? OR lower(actor_email) = lower(?))', filter.actor, filter.actor);
    if (filter.action !== undefined) {
      // A prefix compared by substr, not LIKE, so `%` and `_` in it are plain characters.
      if (filter.action.endsWith('.')) add('substr(action, 1, ?) = ?', filter.action.length, filter.action);
      else add('action = ?', filter.action);
    }
    if (filter.since !== undefined) add('at >= ?', filter.since);
    if (filter.until !== undefined) add('at < ?', filter.until);
    if (filter.beforeSeq !== undefined) add('seq < ?', filter.beforeSeq);
    const sql = `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`;
    return (this.db.prepare(sql).all(...params, limit) as Row[]).map(fromRow);
  }

  async purgeBefore(at: string): Promise<number> {
    return this.purge.run(at).changes;
  }
}
