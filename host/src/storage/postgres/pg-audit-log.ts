// The audit log in PostgreSQL (table `audit_log` of the 0018 twin): the same filters as the SQLite repository,
// with `$n` parameters. Not yet chosen by the host (its repositories on PostgreSQL are wired together, issue #25).
import type { AuditEventRecord, AuditEventRow, AuditFilter, AuditLogRepository } from '../port/audit-log-repository.js';
import {
  AUDIT_INSERT_COLUMNS,
  type AuditLogRow,
  auditEventFromRow,
  auditInsertValues,
} from '../shared/audit-log-row.js';
import type { Pool } from './pg-driver.js';

export class PgAuditLog implements AuditLogRepository {
  constructor(private readonly pool: Pool) {}

  async append(e: AuditEventRecord): Promise<number> {
    const r = await this.pool.query<{ seq: number }>(
      `INSERT INTO audit_log (${AUDIT_INSERT_COLUMNS}) VALUES (${auditInsertValues(e)
        .map((_, i) => `$${i + 1}`)
        .join(', ')}) RETURNING seq`,
      auditInsertValues(e),
    );
    return r.rows[0]!.seq;
  }

  async list(filter: AuditFilter, limit: number): Promise<AuditEventRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const bind = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (filter.ownerId !== undefined) where.push(`owner_id = ${bind(filter.ownerId)}`);
    if (filter.spaceId !== undefined) where.push(`space_id = ${bind(filter.spaceId)}`);
    if (filter.actorKind !== undefined) where.push(`actor_kind = ${bind(filter.actorKind)}`);
    if (filter.actor !== undefined) {
      const actor = bind(filter.actor);
      where.push(`(actor_id = ${actor} OR lower(actor_email) = lower(${actor}))`);
    }
    if (filter.action !== undefined) {
      // A prefix compared by its characters, not LIKE: `%` and `_` in it are plain characters.
      if (filter.action.endsWith('.')) where.push(`starts_with(action, ${bind(filter.action)})`);
      else where.push(`action = ${bind(filter.action)}`);
    }
    if (filter.since !== undefined) where.push(`at >= ${bind(filter.since)}`);
    if (filter.until !== undefined) where.push(`at < ${bind(filter.until)}`);
    if (filter.beforeSeq !== undefined) where.push(`seq < ${bind(filter.beforeSeq)}`);
    const sql = `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ${bind(limit)}`;
    const r = await this.pool.query<AuditLogRow>(sql, params);
    return r.rows.map(auditEventFromRow);
  }

  async purgeBefore(at: string): Promise<number> {
    return (await this.pool.query('DELETE FROM audit_log WHERE at < $1', [at])).rowCount ?? 0;
  }
}
