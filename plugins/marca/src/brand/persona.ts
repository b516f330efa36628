// The persona text (GET /persona, rule 11) is built by the sdk (`buildPersona`), beside the brand's shape and the
// fixed rules, so the console's brand editor shows the same text without importing this plugin. Re-exported here
// under the module's own names.
import { brandIdentitySentence, buildPersona, SALES_AGENT_FIXED_RULES, salesAgentFixedRulesText } from '@cerebro/sdk';

/** Rules appended to every agent description, branded or not (rule 4). Never configurable; shared with ventas. */
export const REGLAS_FIJAS: readonly string[] = SALES_AGENT_FIXED_RULES;

export { buildPersona };
export const identitySentence = brandIdentitySentence;
export const fixedRulesText = salesAgentFixedRulesText;
