import { auditFilterOf } from '../audit/audit-query.js';
import type { AuditTrail } from '../audit/audit-services.js';
import { auditLines, auditPage } from '../audit/audit-pages.js';
import type { AuditFilter } from '../storage/port/audit-log-repository.js';
import type { CliIo } from './run-cli.js';

type Flags = Record<string, string | boolean | undefined>;

const KINDS = ['persona', 'clave', 'operador'];

const text = (f: Flags, name: string): string | undefined => {
  const value = f[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new Error(`--${name} necesita un valor.`);
  return value;
};

/** The operator's filter from the command line, checked as the HTTP route checks its query. */
function filterOf(f: Flags): AuditFilter {
  const kind = text(f, 'actor-kind');
  if (kind !== undefined && !KINDS.includes(kind)) throw new Error('--actor-kind: persona, clave u operador.');
  const cursor = text(f, 'cursor');
  if (cursor !== undefined && !/^[0-9]{1,15}$/.test(cursor)) throw new Error('--cursor: el `siguiente` de una página.');
  let filter: AuditFilter;
  try {
    filter = auditFilterOf({
      actor_tipo: kind,
      actor: text(f, 'actor'),
      accion: text(f, 'action'),
      fecha_desde: text(f, 'since'),
      fecha_hasta: text(f, 'until'),
      cursor,
    });
  } catch {
    throw new Error('--since y --until: fechas ISO 8601 (2026-03-01 o 2026-03-01T09:00:00Z).');
  }
  const owner = text(f, 'owner');
  const space = text(f, 'space');
  return { ...filter, ...(owner ? { ownerId: owner } : {}), ...(space ? { spaceId: space } : {}) };
}

/**
 * `cerebro admin auditoria`: a page of the platform's audit log (as `GET /api/admin/auditoria`), or with `--jsonl`
 * every matching event, one JSON object per line, written as it is read (undefined: nothing more to print).
 */
export async function auditReading(trail: AuditTrail, f: Flags, io: CliIo): Promise<unknown> {
  const filter = filterOf(f);
  if (f.jsonl === true) {
    for await (const lines of auditLines(trail, filter, Number.MAX_SAFE_INTEGER)) io.stdout.write(lines);
    return undefined;
  }
  const limit = f.limit === undefined ? 50 : Number(f.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new Error('--limit: de 1 a 200.');
  return auditPage(trail, filter, limit);
}
