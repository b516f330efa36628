import type { Migration } from '@cerebro/sdk';

/** PostgreSQL twins of `landingMigrations` (same ids), for a host on PostgreSQL. Released: append only. */
export const landingPostgresMigrations: Migration[] = [
  {
    id: '0001_landings',
    sql: `CREATE TABLE landing_landings (
  space_id TEXT NOT NULL,
  id TEXT NOT NULL,
  brief TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (space_id, id)
);
CREATE INDEX landing_landings_recent ON landing_landings (space_id, created_at DESC, id DESC);
CREATE TABLE landing_versions (
  space_id TEXT NOT NULL,
  landing_id TEXT NOT NULL,
  numero BIGINT NOT NULL,
  estado TEXT NOT NULL,
  data TEXT NOT NULL,
  html TEXT,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (space_id, landing_id, numero)
);
CREATE INDEX landing_versions_state ON landing_versions (estado);`,
  },
  {
    id: '0002_publications',
    sql: `CREATE TABLE landing_publications (
  space_id TEXT NOT NULL,
  landing_id TEXT NOT NULL,
  token TEXT NOT NULL,
  numero BIGINT NOT NULL,
  formulario BIGINT NOT NULL,
  published_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (space_id, landing_id)
);
CREATE UNIQUE INDEX landing_publications_token ON landing_publications (space_id, token);
CREATE TABLE landing_stats (
  space_id TEXT NOT NULL,
  landing_id TEXT NOT NULL,
  vistas BIGINT NOT NULL DEFAULT 0,
  clics BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (space_id, landing_id)
);
CREATE TABLE landing_leads (
  space_id TEXT NOT NULL,
  id TEXT NOT NULL,
  landing_id TEXT NOT NULL,
  numero BIGINT NOT NULL,
  nombre TEXT NOT NULL,
  contacto TEXT NOT NULL,
  mensaje TEXT NOT NULL,
  conversacion TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (space_id, id)
);
CREATE INDEX landing_leads_recent ON landing_leads (space_id, landing_id, created_at DESC, id DESC);`,
  },
];
