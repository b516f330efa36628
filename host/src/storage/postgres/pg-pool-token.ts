import { createToken } from '@cerebro/sdk';
import type { Pool } from './pg-driver.js';

/**
 * The pool of the host's PostgreSQL database (`CEREBRO_DATABASE_URL`), registered only when it is set. A type-only
 * import of `pg`: declaring the token loads nothing.
 */
export const PgPoolToken = createToken<Pool>('host:pg-pool');
