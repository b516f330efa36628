import type { Migration } from '@cerebro/sdk';

/**
 * PostgreSQL twin of `storage/migrations/0016_key_limits.ts` (limits per key, and one `limit_windows` table for every
 * limit window). Invalid day strings are left out, as SQLite's `unixepoch` gives them NULL. Released: never edit,
 * add a new one.
 */
export const pgMigration0016KeyLimits: Migration = {
  id: '0016_key_limits',
  sql: `
CREATE TABLE limit_windows (
  bucket TEXT NOT NULL,
  window_start BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  calls BIGINT NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
CREATE INDEX limit_windows_expiry ON limit_windows (expires_at);
INSERT INTO limit_windows (bucket, window_start, expires_at, calls)
  SELECT 'espacio:' || space_id || ':minuto', minute * 60000, (minute + 1) * 60000, calls FROM rate_windows;
INSERT INTO limit_windows (bucket, window_start, expires_at, calls)
  SELECT 'espacio:' || space_id || ':dia', d.ms, d.ms + 86400000, calls
    FROM daily_usage CROSS JOIN LATERAL
      (SELECT (extract(epoch FROM day::date) * 1000)::bigint AS ms) d
   WHERE day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
DROP TABLE rate_windows;
DROP TABLE daily_usage;
ALTER TABLE api_keys ADD COLUMN rate_limit BIGINT CHECK (rate_limit IS NULL OR rate_limit >= 1);
ALTER TABLE api_keys ADD COLUMN daily_quota BIGINT CHECK (daily_quota IS NULL OR daily_quota >= 1);
`,
};
