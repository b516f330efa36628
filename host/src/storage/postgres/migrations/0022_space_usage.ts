import type { Migration } from '@cerebro/sdk';

/**
 * PostgreSQL twin of `storage/migrations/0022_space_usage.ts` (each space's documents' bytes and count, kept by a
 * trigger on `cerebro_documents`). Released: never edit, add a new one.
 */
export const pgMigration0022SpaceUsage: Migration = {
  id: '0022_space_usage',
  sql: `
CREATE TABLE cerebro_space_usage (
  space TEXT PRIMARY KEY,
  bytes BIGINT NOT NULL DEFAULT 0,
  documents BIGINT NOT NULL DEFAULT 0
);
INSERT INTO cerebro_space_usage (space, bytes, documents)
  SELECT space, coalesce(sum(bytes), 0), count(*) FROM cerebro_documents GROUP BY space;
CREATE FUNCTION cerebro_space_usage_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE cerebro_space_usage SET bytes = bytes - OLD.bytes, documents = documents - 1 WHERE space = OLD.space;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO cerebro_space_usage AS u (space, bytes, documents) VALUES (NEW.space, NEW.bytes, 1)
      ON CONFLICT (space) DO UPDATE SET bytes = u.bytes + excluded.bytes, documents = u.documents + 1;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER cerebro_space_usage_insert_delete AFTER INSERT OR DELETE ON cerebro_documents
  FOR EACH ROW EXECUTE FUNCTION cerebro_space_usage_track();
CREATE TRIGGER cerebro_space_usage_update AFTER UPDATE OF bytes, space ON cerebro_documents
  FOR EACH ROW WHEN (NEW.bytes IS DISTINCT FROM OLD.bytes OR NEW.space IS DISTINCT FROM OLD.space)
  EXECUTE FUNCTION cerebro_space_usage_track();
`,
};
