import type { Migration } from '@cerebro/sdk';
import { pgMigration0001Core } from './0001_core.js';
import { pgMigration0002Cerebro } from './0002_cerebro.js';
import { pgMigration0003Rag } from './0003_rag.js';
import { pgMigration0004HiddenPassages } from './0004_cerebro_hidden_passages.js';
import { pgMigration0005Idempotency } from './0005_idempotency.js';
import { pgMigration0006DocumentOrigins } from './0006_document_origins.js';
import { pgMigration0007Studio } from './0007_studio.js';
import { pgMigration0008FairQueue } from './0008_fair_queue.js';
import { pgMigration0009RelativeDocumentPaths } from './0009_relative_document_paths.js';
import { pgMigration0010StorageQuotas } from './0010_storage_quotas.js';
import { pgMigration0011Webhooks } from './0011_webhooks.js';
import { pgMigration0012SharedState } from './0012_shared_state.js';
import { pgMigration0013JobLeases } from './0013_cerebro_job_leases.js';
import { pgMigration0014DocumentLabels } from './0014_document_labels.js';
import { pgMigration0015ConversationTurns } from './0015_conversation_turns.js';
import { pgMigration0016KeyLimits } from './0016_key_limits.js';
import { pgMigration0017PluginJobs } from './0017_plugin_jobs.js';
import { pgMigration0018AuditLog } from './0018_audit_log.js';
import { pgMigration0019Members } from './0019_members.js';
import { pgMigration0020OwnerSpaces } from './0020_owner_spaces.js';
import { pgMigration0021StorageHolds } from './0021_storage_holds.js';
import { pgMigration0022SpaceUsage } from './0022_space_usage.js';
import { pgMigration0023InlineOriginals } from './0023_inline_originals.js';
import { pgMigration0024InlineOriginalAges } from './0024_inline_original_ages.js';

/**
 * The host's PostgreSQL migrations, in order, one twin per SQLite host migration with the same id
 * (`storage/migrations/index.ts`; a test fails when a SQLite id has no twin here). Append only.
 */
export const PG_HOST_MIGRATIONS: readonly Migration[] = [
  pgMigration0001Core,
  pgMigration0002Cerebro,
  pgMigration0003Rag,
  pgMigration0004HiddenPassages,
  pgMigration0005Idempotency,
  pgMigration0006DocumentOrigins,
  pgMigration0007Studio,
  pgMigration0008FairQueue,
  pgMigration0009RelativeDocumentPaths,
  pgMigration0010StorageQuotas,
  pgMigration0011Webhooks,
  pgMigration0012SharedState,
  pgMigration0013JobLeases,
  pgMigration0014DocumentLabels,
  pgMigration0015ConversationTurns,
  pgMigration0016KeyLimits,
  pgMigration0017PluginJobs,
  pgMigration0018AuditLog,
  pgMigration0019Members,
  pgMigration0020OwnerSpaces,
  pgMigration0021StorageHolds,
  pgMigration0022SpaceUsage,
  pgMigration0023InlineOriginals,
  pgMigration0024InlineOriginalAges,
];
