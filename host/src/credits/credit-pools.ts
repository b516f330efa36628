import { inject, injectable } from 'tsyringe';
import { apiError, type Clock } from '@cerebro/sdk';
import type { AccessDirectory } from '../access/access-services.js';
import type { OwnerCaller } from '../access/caller.js';
import { UNPAID_GRACE_MS, reaches } from '../access/space-access.js';
import { HostTokens } from '../kernel/tokens.js';
import type { CreditLedger, CreditPoolView, OwnerCreditPools } from './credit-services.js';

/** What an owner sees of their accounts' credit pools: only accounts of spaces they reach, and only when paid. */
@injectable()
export class CreditPools implements OwnerCreditPools {
  constructor(
    @inject(HostTokens.Directory) private readonly directory: AccessDirectory,
    @inject(HostTokens.Credits) private readonly ledger: CreditLedger,
    @inject(HostTokens.Clock) private readonly clock: Clock,
  ) {}

  /** The balance and the latest `movements` of an account; 403 out of the caller's reach, 402 unpaid or suspended. */
  async poolOf(caller: OwnerCaller, accountId: string, movements: number, beforeId?: number): Promise<CreditPoolView> {
    const reachable = (await this.directory.ownerSpaces(caller.ownerId)).some(
      (r) => r.row.account_id === accountId && reaches(caller, r),
    );
    const account = reachable ? await this.directory.account(accountId) : undefined;
    if (!account) throw apiError('space_not_reachable', 'Sin acceso a esta cuenta.');
    const unpaidFor = account.unpaid_since ? this.clock.now() - Date.parse(account.unpaid_since) : 0;
    if (account.suspended === 1 || unpaidFor > UNPAID_GRACE_MS) throw apiError('payment_required');
    return {
      cuenta: account.id,
      saldo: account.credits,
      movimientos: await this.ledger.recent(account.id, movements, beforeId),
    };
  }
}
