import type { CreditRefunds } from '@cerebro/sdk';
import type { SyncSpaceReader } from '../storage/port/sync-space-reader.js';
import type { SqliteDatabase } from '../storage/database.js';
import type { CreditLedger } from './credit-services.js';

/**
 * Refunds for one plugin's background work: only what a request to one of that plugin's routes was charged, and
 * only once (a `reembolso` movement with the same request id means it was already given back, by the pipeline or
 * by an earlier call).
 */
export function pluginCreditRefunds(
  db: SqliteDatabase,
  ledger: CreditLedger,
  spaces: SyncSpaceReader,
  module: string,
): CreditRefunds {
  const movements = db.prepare<[string, string], { delta: number; reason: string; route: string | null }>(
    'SELECT delta, reason, route FROM credit_movements WHERE account_id = ? AND request_id = ?',
  );
  const routePrefix = ` /mod/${module}/`;
  return {
    refund(spaceId, requestId) {
      const accountId = spaces.spaceNow(spaceId)?.row.account_id;
      if (!accountId) return 0;
      return db.transaction(() => {
        const rows = movements.all(accountId, requestId);
        const charged = rows
          .filter((r) => r.reason === 'consumo' && r.route?.includes(routePrefix))
          .reduce((n, r) => n - r.delta, 0);
        const given = rows.filter((r) => r.reason === 'reembolso').reduce((n, r) => n + r.delta, 0);
        const owed = charged - given;
        if (owed <= 0) return 0;
        const route = rows.find((r) => r.reason === 'consumo')?.route ?? null;
        ledger.credit(accountId, owed, 'reembolso', { spaceId, route, requestId });
        return owed;
      })();
    },
  };
}
