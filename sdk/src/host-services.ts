import { createToken } from './tokens.js';
import type { Clock } from './services/clock.js';
import type { PluginConfig } from './services/config.js';
import type { Logger } from './services/logger.js';
import type { SpaceDirectory } from './services/spaces.js';
import type { PluginStorage } from './services/storage.js';
import type { PluginDatabase } from './services/database.js';
import type { UploadReceiver } from './services/uploads.js';
import type { CerebroService } from './services/cerebro.js';
import type { DocumentsService } from './services/documents.js';
import type { CreditRefunds } from './services/credits.js';
import type { EventPublisher } from './services/events.js';
import type { JobsService } from './services/jobs.js';

/**
 * Services the host can place in a plugin's container. A plugin lists the ones it needs in `manifest.needs`;
 * anything not listed is absent from its container.
 */
export const HostServices = {
  /** pino child logger bound to `{plugin: id}`. */
  Logger: createToken<Logger>('host:logger'),
  /**
   * The plugin's own database, asynchronous and backend-neutral (SQLite today, PostgreSQL later): `query`,
   * `execute`, `transaction(async tx => …)` with `?` parameters.
   */
  Database: createToken<PluginDatabase>('host:database'),
  /**
   * The plugin's SQLite file through better-sqlite3's synchronous API.
   * @deprecated Since sdk 2: use `Database`. Kept working on SQLite for plugins written against it; it cannot run on
   * PostgreSQL, and a plugin needing it stays on a SQLite host.
   */
  Storage: createToken<PluginStorage>('host:storage'),
  /** The plugin's configuration. */
  Config: createToken<PluginConfig>('host:config'),
  Clock: createToken<Clock>('host:clock'),
  /** Streams multipart uploads to temporary files with limits. */
  Uploads: createToken<UploadReceiver>('host:uploads'),
  /** Read-only directory of spaces and their modules. */
  Spaces: createToken<SpaceDirectory>('host:spaces'),
  /** Questions to the space's documents. */
  Cerebro: createToken<CerebroService>('host:cerebro'),
  /** Add, replace and remove a space's documents with an origin; search its passages. */
  Documents: createToken<DocumentsService>('host:documents'),
  /** Give back the charge of a paid request whose background work failed. */
  CreditRefunds: createToken<CreditRefunds>('host:credit-refunds'),
  /** Publish the plugin's events to the space's webhooks (signed, stored, retried). */
  Events: createToken<EventPublisher>('host:events'),
  /** Durable jobs with leases, run once however many processes share the data folder (sdk 2.1). */
  Jobs: createToken<JobsService>('host:jobs'),
} as const;
