import { inject, injectable } from 'tsyringe';
import { HostTokens } from '../../kernel/tokens.js';
import type { SqliteDatabase } from '../database.js';
import type { AuditEventRecord, AuditEventRow, AuditFilter, AuditLogRepository } from '../port/audit-log-repository.js';
import {
  AUDIT_INSERT_COLUMNS,
  type AuditLogRow,
  auditEventFromRow,
  auditInsertValues,
} from '../shared/audit-log-row.js';

/** The audit log in the `audit_log` table. Filters are built from fixed fragments; every value is a parameter. */
@injectable()
export class SqliteAuditLogRepository implements AuditLogRepository {
  private readonly insert;
  private readonly purge;

  constructor(@inject(HostTokens.Database) private readonly db: SqliteDatabase) {
    this.insert = db.prepare(
      `INSERT INTO audit_log (${AUDIT_INSERT_COLUMNS}) VALUES (${AUDIT_INSERT_COLUMNS.split(',')
        .map(() => '?')
        .join(', ')})`,
    );
    this.purge = db.prepare('DELETE FROM audit_log WHERE at < ?');
  }

  async append(e: AuditEventRecord): Promise<number> {
    const { lastInsertRowid } = this.insert.run(...auditInsertValues(e));
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
    return (this.db.prepare(sql).all(...params, limit) as AuditLogRow[]).map(auditEventFromRow);
  }

  async purgeBefore(at: string): Promise<number> {
    return this.purge.run(at).changes;
  }
}
