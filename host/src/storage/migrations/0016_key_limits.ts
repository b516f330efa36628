import type { Migration } from '@cerebro/sdk';

/**
 * Limits per key (issue #27 item 5) and one table for every limit window (issue #24 item 1, the storage port):
 * `limit_windows` holds fixed windows of named buckets (`espacio:<id>:minuto`, `espacio:<id>:dia`,
 * `clave:<id>:minuto`, `clave:<id>:dia`), the shape a Redis counter with a TTL has too. The per-minute windows of
 * spaces (`rate_windows`) and the daily counts of spaces (`daily_usage`) move into it; `expires_at` lets old windows
 * be forgotten by one range delete. A key's own limits are two nullable columns (null: only the space's apply).
 * Released: never edit, add a new one.
 */
export const migration0016KeyLimits: Migration = {
  id: '0016_key_limits',
  sql: `
CREATE TABLE limit_windows (
  bucket TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  calls INTEGER NOT NULL,
  PRIMARY KEY (bucket, window_start)
) WITHOUT ROWID;
CREATE INDEX limit_windows_expiry ON limit_windows (expires_at);
INSERT INTO limit_windows (bucket, window_start, expires_at, calls)
  SELECT 'espacio:' || space_id || ':minuto', minute * 60000, (minute + 1) * 60000, calls FROM rate_windows;
INSERT INTO limit_windows (bucket, window_start, expires_at, calls)
  SELECT 'espacio:' || space_id || ':dia', unixepoch(day) * 1000, unixepoch(day) * 1000 + 86400000, calls
    FROM daily_usage WHERE unixepoch(day) IS NOT NULL;
DROP TABLE rate_windows;
DROP TABLE daily_usage;
ALTER TABLE api_keys ADD COLUMN rate_limit INTEGER CHECK (rate_limit IS NULL OR rate_limit >= 1);
ALTER TABLE api_keys ADD COLUMN daily_quota INTEGER CHECK (daily_quota IS NULL OR daily_quota >= 1);
`,
};
