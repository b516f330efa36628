import type { Migration } from '@cerebro/sdk';

/** Released migrations of the sales module: append only (the host refuses an edited one). */
export const ventasMigrations: Migration[] = [
  {
    id: '0001_ventas',
    sql: `CREATE TABLE ventas_config (
  space_id TEXT PRIMARY KEY,
  config TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE ventas_products (
  space_id TEXT NOT NULL,
  id TEXT NOT NULL,
  data TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (space_id, id)
);
CREATE TABLE ventas_conversations (
  space_id TEXT NOT NULL,
  id TEXT NOT NULL,
  state TEXT NOT NULL,
  estado TEXT NOT NULL,
  contacto TEXT,
  mensajes INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (space_id, id)
);
CREATE INDEX ventas_conversations_recent ON ventas_conversations (space_id, updated_at DESC);
CREATE TABLE ventas_messages (
  space_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  rol TEXT NOT NULL,
  texto TEXT NOT NULL,
  tipo TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (space_id, conversation_id, seq)
);`,
  },
];
