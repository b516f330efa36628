import type { Migration } from '@cerebro/sdk';

/**
 * What each space's documents take (bytes, count), kept by triggers on `cerebro_documents` as rows come, change size
 * and go, so a storage-quota check reads one row per space of the account instead of summing every document of it:
 * a crawl checks the quota once per batch of pages, and that sum grew with the space (quadratic over a crawl). The
 * triggers see every write of any process, as the sum did. Released: never edit, add a new one.
 */
export const migration0022SpaceUsage: Migration = {
  id: '0022_space_usage',
  sql: `
CREATE TABLE cerebro_space_usage (
  space TEXT PRIMARY KEY,
  bytes INTEGER NOT NULL DEFAULT 0,
  documents INTEGER NOT NULL DEFAULT 0
);
INSERT INTO cerebro_space_usage (space, bytes, documents)
  SELECT space, coalesce(sum(bytes), 0), count(*) FROM cerebro_documents GROUP BY space;
CREATE TRIGGER cerebro_space_usage_insert AFTER INSERT ON cerebro_documents BEGIN
  INSERT INTO cerebro_space_usage (space, bytes, documents) VALUES (NEW.space, NEW.bytes, 1)
    ON CONFLICT (space) DO UPDATE SET bytes = bytes + excluded.bytes, documents = documents + 1;
END;
CREATE TRIGGER cerebro_space_usage_delete AFTER DELETE ON cerebro_documents BEGIN
  UPDATE cerebro_space_usage SET bytes = bytes - OLD.bytes, documents = documents - 1 WHERE space = OLD.space;
END;
CREATE TRIGGER cerebro_space_usage_update AFTER UPDATE OF bytes, space ON cerebro_documents
  WHEN NEW.bytes IS NOT OLD.bytes OR NEW.space IS NOT OLD.space BEGIN
  UPDATE cerebro_space_usage SET bytes = bytes - OLD.bytes, documents = documents - 1 WHERE space = OLD.space;
  INSERT INTO cerebro_space_usage (space, bytes, documents) VALUES (NEW.space, NEW.bytes, 1)
    ON CONFLICT (space) DO UPDATE SET bytes = bytes + excluded.bytes, documents = documents + 1;
END;
`,
};
