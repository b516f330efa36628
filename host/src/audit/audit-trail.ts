import type { Logger as PinoLogger } from 'pino';
import { inject, injectable } from 'tsyringe';
import type { Clock } from '@cerebro/sdk';
import type { HostConfig } from '../config/host-config.js';
import { HostTokens } from '../kernel/tokens.js';
import {
  type AuditEventRow,
  type AuditFilter,
  type AuditLogRepository,
  AuditLogRepositoryToken,
} from '../storage/port/audit-log-repository.js';
import { type ProcessLeaseRepository, ProcessLeaseRepositoryToken } from '../storage/port/process-lease-repository.js';
import { PROCESS_OWNER } from '../storage/shared/process-owner.js';
import type { AuditEntry, AuditTrail } from './audit-services.js';
import { auditJson, withoutSecrets } from './audit-redaction.js';

/** The lease that keeps two processes sharing the database from purging the same rows at once. */
const PURGE_LEASE = 'purga-auditoria';
const PURGE_LEASE_MS = 60_000;

/** The audit log over its repository: entries stripped of secrets, failures logged, old events purged. */
@injectable()
export class StoredAuditTrail implements AuditTrail {
  private readonly log: PinoLogger;

  constructor(
    @inject(AuditLogRepositoryToken) private readonly repo: AuditLogRepository,
    @inject(ProcessLeaseRepositoryToken) private readonly leases: ProcessLeaseRepository,
    @inject(HostTokens.Clock) private readonly clock: Clock,
    @inject(HostTokens.Config) private readonly config: HostConfig,
    @inject(HostTokens.RootLogger) rootLog: PinoLogger,
  ) {
    this.log = rootLog.child({ componente: 'auditoria' });
  }

  async record(entry: AuditEntry): Promise<void> {
    try {
      await this.repo.append({
        at: new Date(this.clock.now()).toISOString(),
        actorKind: entry.actor.kind,
        actorId: entry.actor.id,
        actorEmail: entry.actor.email,
        actorName: entry.actor.name,
        action: entry.action,
        targetKind: entry.target?.kind ?? null,
        targetId: entry.target?.id ?? null,
        ownerId: entry.ownerId ?? null,
        spaceId: entry.spaceId ?? null,
        ip: entry.ip || null,
        requestId: entry.requestId ?? null,
        route: entry.route ?? null,
        beforeJson: auditJson(entry.before),
        afterJson: auditJson(entry.after),
        detailsJson: entry.details ? JSON.stringify(withoutSecrets(entry.details)) : null,
      });
    } catch (err) {
      // Only the action and who: the entry's values are not for the log.
      this.log.error(
        { err, accion: entry.action, actor: entry.actor.kind },
        'no se pudo registrar un evento de auditoría',
      );
    }
  }

  list(filter: AuditFilter, limit: number): Promise<AuditEventRow[]> {
    return this.repo.list(filter, limit);
  }

  async purgeExpired(): Promise<number> {
    const days = this.config.auditRetentionDays;
    if (days === 0) return 0;
    const now = this.clock.now();
    if (!(await this.leases.acquire(PURGE_LEASE, PROCESS_OWNER, now, PURGE_LEASE_MS))) return 0;
    try {
      return await this.repo.purgeBefore(new Date(now - days * 86_400_000).toISOString());
    } finally {
      await this.leases.release(PURGE_LEASE, PROCESS_OWNER).catch(() => undefined);
    }
  }
}
