import type { AuditFilter } from '../storage/port/audit-log-repository.js';
import type { AuditTrail } from './audit-services.js';
import { auditEventView } from './audit-views.js';

const EXPORT_BATCH = 500;

/** One page of the log, newest first, with the cursor of the next (null on the last). */
export async function auditPage(trail: AuditTrail, filter: AuditFilter, limit: number) {
  // One more than asked tells whether a next page exists without a second query.
  const rows = await trail.list(filter, limit + 1);
  const shown = rows.slice(0, limit);
  return {
    eventos: shown.map(auditEventView),
    siguiente: rows.length > limit ? String(shown.at(-1)!.seq) : null,
  };
}

/** Every matching event (at most `max`) as JSON Lines, one batch of lines at a time, read as they are consumed. */
export async function* auditLines(trail: AuditTrail, filter: AuditFilter, max: number): AsyncGenerator<string> {
  let before = filter.beforeSeq;
  let sent = 0;
  while (sent < max) {
    const rows = await trail.list(
      { ...filter, ...(before !== undefined ? { beforeSeq: before } : {}) },
      Math.min(EXPORT_BATCH, max - sent),
    );
    if (rows.length === 0) return;
    yield `${rows.map((row) => JSON.stringify(auditEventView(row))).join('\n')}\n`;
    sent += rows.length;
    before = rows.at(-1)!.seq;
  }
}
