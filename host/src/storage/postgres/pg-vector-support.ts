// How passage vectors are compared on PostgreSQL: inside the server with pgvector when it has the extension, or
// exactly in the engine otherwise (Debian's PostgreSQL 15 here has no pgvector package). Health reports which.
import type { Pool } from './pg-driver.js';

export type PgVectorSearch = 'pgvector' | 'exacta_en_el_motor';

export async function pgVectorSearch(pool: Pool): Promise<PgVectorSearch> {
  const r = await pool.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
  return r.rowCount ? 'pgvector' : 'exacta_en_el_motor';
}
