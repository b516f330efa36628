/**
 * Refunds of work a paid route accepted and then could not finish. The host charges a route's `credits` when its
 * handler succeeds; a route that answers 202 and works in the background uses this to give the charge back when
 * the background work fails.
 */
export interface CreditRefunds {
  /**
   * Gives back what the request `requestId` (the `ModuleRequest.id` of a paid route of this plugin) was charged on
   * `spaceId`'s account. Only once per request, and only for this plugin's routes. Returns the credits given back
   * (0 when nothing was charged, already refunded, or the request is not this plugin's). Asynchronous: the ledger is
   * behind the host's storage port, which may be a database server.
   */
  refund(spaceId: string, requestId: string): Promise<number>;
}
