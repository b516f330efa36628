/**
 * Refunds for paid routes whose work outlives the request. The pipeline refunds a paid request whose handler fails;
 * a route that accepts work (202) and finishes it later (a landing page being generated) uses this service to give
 * the credits back when that later work fails or is cancelled.
 */
export interface CreditRefunds {
  /**
   * Gives `amount` credits back to the account of `spaceId`, recorded as a `reembolso` movement naming `route`
   * (the plugin's route id) and the `requestId` that was charged. Never throws: a refund that cannot be recorded
   * (space or account gone) is logged by the host.
   */
  refund(spaceId: string, amount: number, context: { route: string; requestId: string }): void;
}
