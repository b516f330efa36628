// Public surface of the sales agent domain: what the ventas routes and storage wire up.
export { SalesAgent, resumeConversation } from './agent.js';
export type {
  AgentDeps,
  AgentEvent,
  BrandProvider,
  CatalogSource,
  KnowledgeRequest,
  KnowledgeSource,
  TurnInput,
  TurnResult,
  Wording,
  WordingRequest,
} from './ports.js';
export { ConversationRunner } from './runner.js';
export type { ConversationStore, MessageInput } from './runner.js';
export { BrandCache, brandApplies, MAX_BRAND_TTL_MS, ownDescription, systemClock } from './brand.js';
export type { AgentBrand, BrandCacheOptions, BrandOrigin, BrandSource, Clock } from './brand.js';
export { knownCities, shippingCost, validateProduct } from './catalog.js';
export type { Product, ProductError, ProductResult } from './catalog.js';
export { parseCatalogCsv } from './csv.js';
export type { CsvImport, CsvLineError } from './csv.js';
export { applyLeadsConfigPatch, defaultLeadsConfig, leadsConfigFromStored } from './config.js';
export type { LeadsConfig, LeadsConfigResult } from './config.js';
export { conversationStateFromStored, newConversationState } from './state.js';
export type { ConversationState } from './state.js';
export { computeQuote } from './quote.js';
export type { QuoteLine, QuoteView } from './quote.js';
export { checkFigures, factsFrom } from './figures.js';
export type { Facts, FigureViolation } from './figures.js';
export { analyze } from './intent.js';
export type { Analysis, Intent } from './intent.js';
export { formatMoney } from '@cerebro/sdk';
export type { AnswerKind } from './tactics.js';
export { wordingMessages } from './wording.js';
export type { WordingMessage } from './wording.js';
