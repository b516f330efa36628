import type { Migration } from '@cerebro/sdk';

/** Released migrations of module `fuentes`: append only (the host refuses an edited one). */
export const fuentesMigrations: Migration[] = [
  {
    id: '0001_fuentes',
    sql: `
CREATE TABLE fuentes_sources (
  space_id TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  settings TEXT NOT NULL,
  every_hours INTEGER,
  next_run_at INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (space_id, id)
);
CREATE INDEX fuentes_sources_due ON fuentes_sources (next_run_at) WHERE next_run_at IS NOT NULL;
CREATE INDEX fuentes_sources_list ON fuentes_sources (space_id, created_at);

CREATE TABLE fuentes_runs (
  space_id TEXT NOT NULL,
  id TEXT NOT NULL,
  source_id TEXT NOT NULL,
  state TEXT NOT NULL,
  reason TEXT,
  trigger TEXT NOT NULL,
  counts TEXT NOT NULL,
  bytes INTEGER NOT NULL DEFAULT 0,
  errors TEXT NOT NULL,
  errors_dropped INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  PRIMARY KEY (space_id, id)
);
CREATE INDEX fuentes_runs_source ON fuentes_runs (space_id, source_id, created_at);
CREATE INDEX fuentes_runs_open ON fuentes_runs (state) WHERE state IN ('en_cola', 'ejecutando');

CREATE TABLE fuentes_pages (
  space_id TEXT NOT NULL,
  source_id TEXT NOT NULL,
  url TEXT NOT NULL,
  document TEXT,
  etag TEXT,
  last_modified TEXT,
  content_hash TEXT,
  fetched_at TEXT NOT NULL,
  seen_run TEXT NOT NULL,
  PRIMARY KEY (space_id, source_id, url)
);

CREATE TABLE fuentes_fichas (
  space_id TEXT NOT NULL,
  id TEXT NOT NULL,
  topic TEXT NOT NULL,
  request TEXT NOT NULL,
  state TEXT NOT NULL,
  progress REAL NOT NULL DEFAULT 0,
  reason TEXT,
  result TEXT,
  request_id TEXT,
  credits INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  PRIMARY KEY (space_id, id)
);
CREATE INDEX fuentes_fichas_list ON fuentes_fichas (space_id, created_at);
CREATE INDEX fuentes_fichas_open ON fuentes_fichas (state) WHERE state IN ('en_cola', 'generando');
`,
  },
  {
    // Several processes may share the plugin's database: a run names the process running it, so a process that
    // starts ends only the runs of processes that are gone, never another live process's.
    id: '0002_fuentes_run_owner',
    sql: 'ALTER TABLE fuentes_runs ADD COLUMN owner TEXT;',
  },
  {
    // A page's outgoing links (JSON array), kept so that a re-run still follows them when the page answers 304:
    // without them every page reached only through an unchanged page was taken for gone and lost its document.
    id: '0003_fuentes_page_links',
    sql: 'ALTER TABLE fuentes_pages ADD COLUMN links TEXT;',
  },
];
