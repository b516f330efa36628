import type { CreditRefunds } from '@cerebro/sdk';
import type { AccessDirectory } from '../access/access-services.js';
import type { CreditLedger } from './credit-services.js';

/**
 * Refunds for one plugin's background work: only what a request to one of that plugin's routes was charged, and
 * only once (a `reembolso` movement with the same request id means it was already given back, by the pipeline or
 * by an earlier call; the ledger checks and refunds in one transaction).
 */
export function pluginCreditRefunds(
  ledger: CreditLedger,
  spaces: Pick<AccessDirectory, 'space'>,
  module: string,
): CreditRefunds {
  const routePrefix = ` /mod/${module}/`;
  return {
    async refund(spaceId, requestId) {
      const accountId = (await spaces.space(spaceId))?.row.account_id;
      if (!accountId) return 0;
      return ledger.refundRequest(accountId, requestId, routePrefix, spaceId);
    },
  };
}
