import type { Migration } from '@cerebro/sdk';
import { migration0001Core } from './0001_core.js';
import { migration0005Idempotency } from './0005_idempotency.js';
import { migration0006DocumentOrigins } from './0006_document_origins.js';
import { migration0007Studio } from './0007_studio.js';
import { migration0009RelativeDocumentPaths } from './0009_relative_document_paths.js';
import { migration0010StorageQuotas } from './0010_storage_quotas.js';
import {
  CEREBRO_FAIR_QUEUE_MIGRATION,
  CEREBRO_HIDDEN_PASSAGES_MIGRATION,
  CEREBRO_JOB_LEASES_MIGRATION,
  CEREBRO_MIGRATION,
} from '../../cerebro/index.js';
import { migration0011Webhooks } from './0011_webhooks.js';
import { migration0012SharedState } from './0012_shared_state.js';
import { migration0014DocumentLabels } from './0014_document_labels.js';
import { migration0003Rag } from '../../rag/rag-migration.js';
import { migration0015ConversationTurns } from './0015_conversation_turns.js';
import { migration0016KeyLimits } from './0016_key_limits.js';
import { migration0017PluginJobs } from './0017_plugin_jobs.js';
import { migration0018AuditLog } from './0018_audit_log.js';
import { migration0019Members } from './0019_members.js';
import { migration0020OwnerSpaces } from './0020_owner_spaces.js';
import { migration0021StorageHolds } from './0021_storage_holds.js';
import { migration0022SpaceUsage } from './0022_space_usage.js';
import { migration0023InlineOriginals } from './0023_inline_originals.js';
import { migration0024InlineOriginalAges } from './0024_inline_original_ages.js';

/** The host's migrations, in order. Append only. */
export const HOST_MIGRATIONS: readonly Migration[] = [
  migration0001Core,
  CEREBRO_MIGRATION,
  migration0003Rag,
  CEREBRO_HIDDEN_PASSAGES_MIGRATION,
  migration0005Idempotency,
  migration0006DocumentOrigins,
  migration0007Studio,
  CEREBRO_FAIR_QUEUE_MIGRATION,
  migration0009RelativeDocumentPaths,
  migration0010StorageQuotas,
  migration0011Webhooks,
  migration0012SharedState,
  CEREBRO_JOB_LEASES_MIGRATION,
  migration0014DocumentLabels,
  migration0015ConversationTurns,
  migration0016KeyLimits,
  migration0017PluginJobs,
  migration0018AuditLog,
  migration0019Members,
  migration0020OwnerSpaces,
  migration0021StorageHolds,
  migration0022SpaceUsage,
  migration0023InlineOriginals,
  migration0024InlineOriginalAges,
];
