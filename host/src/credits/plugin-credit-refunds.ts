import type { CreditRefunds } from '@cerebro/sdk';
import type { SyncSpaceReader } from '../storage/port/sync-space-reader.js';
import type { CreditLedger } from './credit-services.js';

/**
 * Refunds for one plugin's background work: only what a request to one of that plugin's routes was charged, and
 * only once (a `reembolso` movement with the same request id means it was already given back, by the pipeline or
 * by an earlier call; the ledger checks and refunds in one transaction).
 */
export function pluginCreditRefunds(ledger: CreditLedger, spaces: SyncSpaceReader, module: string): CreditRefunds {
  const routePrefix = ` /mod/${module}/`;
  return {
    async refund(spaceId, requestId) {
      const accountId = spaces.spaceNow(spaceId)?.row.account_id;
      if (!accountId) return 0;
      return ledger.refundRequest(accountId, requestId, routePrefix, spaceId);
    },
  };
}
