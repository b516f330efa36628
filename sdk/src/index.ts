import 'reflect-metadata';

export { SDK_VERSION, SDK_STILL_SERVED } from './version.js';
export { createToken, tokenName, type Token, type ServiceOf } from './tokens.js';
export { HostServices } from './host-services.js';
export { ModuleServices } from './module-services.js';
export type {
  BrandReader,
  BrandSnapshot,
  BrandConfig,
  BrandIdentidad,
  BrandEstilo,
  BrandTacticas,
} from './services/brand.js';
export { SALES_AGENT_FIXED_RULES, salesAgentFixedRulesText } from './services/brand.js';
export {
  buildPersona,
  brandIdentitySentence,
  roleAtShop,
  BRAND_TONES,
  BRAND_TRAITS,
} from './services/brand-persona.js';
export type { CerebroService, CerebroAnswer, CerebroSource } from './services/cerebro.js';
export type {
  DocumentsService,
  DocumentOrigin,
  RecordedOrigin,
  SpaceDocument,
  DocumentInput,
  PassageHit,
  SearchOptions,
} from './services/documents.js';
export { PUT_MANY_MAX } from './services/documents.js';
export type { CatalogReader, CatalogProduct } from './services/catalog.js';
export type { LeadInbox, LeadInput, LeadReceipt } from './services/leads.js';
export { formatMoney, parseAmount } from './services/money.js';
export { countOf } from './text/count.js';
export type { CreditRefunds } from './services/credits.js';
export { WEBHOOK_EVENTS, type WebhookEventType, type EventPublisher } from './services/events.js';
export type {
  JobsService,
  JobPayload,
  EnqueueOptions,
  EnqueuedJob,
  JobState,
  JobInfo,
  JobStopReason,
  JobContext,
  JobHandler,
} from './services/jobs.js';
export * from './errors/index.js';
export {
  Reply,
  type ModuleRequest,
  type QueryValue,
  type RouteHandler,
  type SpaceContext,
  type CallerContext,
  type Permission,
  type HttpMethod,
} from './http.js';
export {
  definePlugin,
  type PluginDefinition,
  type PluginManifest,
  type PluginScope,
  type PluginSetupResult,
  type RouteAudit,
  type RouteDeclaration,
  type PublicRoute,
  PUBLIC_MAX_BODY_BYTES,
  type Migration,
  type ServiceUse,
  type JsonSchema,
  type RouteBody,
  type RouteQuery,
  type HandlersOf,
  type PaidRouteFunctions,
  type TypedSetupResult,
  type TypedPluginDefinition,
} from './manifest.js';
export type { PluginGauge, PluginGaugeSample } from './metrics.js';
export { FairSlots } from './fair-slots.js';
export { pagingQuery, MAX_OFFSET, type QuerySchema, type Page } from './query.js';
export {
  objectSchema,
  listSchema,
  pageSchema,
  errorResponse,
  VALIDATION_RESPONSE,
  type RouteResponses,
} from './response-schemas.js';
export { processOwner, ownerIsGone } from './process-owner.js';
export type { Logger } from './services/logger.js';
export type { PluginStorage, SqlStatement } from './services/storage.js';
export {
  SqlMisuseError,
  type PluginDatabase,
  type SqlSession,
  type SqlValue,
  type ExecuteResult,
} from './services/database.js';
export type { Clock } from './services/clock.js';
export type { PluginConfig } from './services/config.js';
export type { SpaceDirectory, SpaceInfo } from './services/spaces.js';
export {
  UploadError,
  type UploadReceiver,
  type ReceivedFile,
  type ReceivedForm,
  type UploadLimits,
  type UploadFailure,
} from './services/uploads.js';
// Re-exported so plugins use the same tsyringe instance as the host.
export { inject, injectable, Lifecycle, type DependencyContainer } from 'tsyringe';
export { AddressPolicy } from './net/address-policy.js';
export { AddressRefused, guardedLookup, systemResolver, type Resolver } from './net/guarded-lookup.js';
