// The access repositories' contract fixture on PostgreSQL: storage/sqlite/access-fixture.ts's inserts.
import type { AccessFixture } from '../../port/access-fixture.js';
import type { Pool } from '../pg-driver.js';

const CREATED = '2026-01-01T00:00:00.000Z';

export function pgAccessFixture(pool: Pool): AccessFixture {
  return {
    async owner(o) {
      await pool.query(
        'INSERT INTO owners (id, name, email, read_only, created_at, deleted_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [o.id, o.name ?? o.id, o.email ?? null, o.readOnly ? 1 : 0, CREATED, o.deletedAt ?? null],
      );
    },
    async account(a) {
      await pool.query('INSERT INTO accounts (id, owner_id, credits, created_at) VALUES ($1, $2, $3, $4)', [
        a.id,
        a.ownerId,
        a.credits ?? 0,
        CREATED,
      ]);
    },
    async space(s) {
      await pool.query(
        `INSERT INTO spaces (id, name, owner_id, account_id, trial_ends_at, api_enabled, api_settings, created_at)
         VALUES ($1, $1, $2, $3, $4, $5, $6, $7)`,
        [
          s.id,
          s.ownerId,
          s.accountId,
          s.trialEndsAt ?? null,
          s.apiEnabled === false ? 0 : 1,
          s.apiSettings ?? '{}',
          CREATED,
        ],
      );
      for (const m of s.modules ?? [])
        await pool.query('INSERT INTO space_modules (space_id, module, enabled_at) VALUES ($1, $2, $3)', [
          s.id,
          m,
          CREATED,
        ]);
    },
    async operator(c) {
      await pool.query(
        'INSERT INTO operator_credentials (id, name, secret_digest, created_at, revoked_at) VALUES ($1, $1, $2, $3, $4)',
        [c.id, c.digest, CREATED, c.revokedAt ?? null],
      );
    },
  };
}
