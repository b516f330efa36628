/**
 * Prices as the catalog writes them, "89,90 EUR", "45.000 COP": the sdk's formatter, the one the sales agent's
 * replies and the landing pages use, so Studio never shows "89,9 EUR" for a price a customer reads as "89,90 EUR".
 */
export { formatMoney } from '@cerebro/sdk';
