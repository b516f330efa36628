import 'reflect-metadata';
import { memberRepositoryContract } from '../port/member-repository.contract.js';
import { PgMemberSessionRepository } from '../postgres/pg-console-session-repository.js';
import { PgMemberRepository } from '../postgres/pg-member-repository.js';
import { pgAccessFixture } from '../postgres/testing/pg-access-fixture.js';
import { openMigratedTestDatabase, sqliteAccessFixture } from '../sqlite/access-fixture.js';
import { SqliteMemberSessionRepository } from '../sqlite/console-session-repository.js';
import { SqliteMemberRepository } from '../sqlite/member-repository.js';
import { onEachBackend } from './each-backend.js';

await onEachBackend(memberRepositoryContract, {
  async sqlite() {
    const { db, close } = openMigratedTestDatabase();
    return {
      repo: new SqliteMemberRepository(db),
      sessions: new SqliteMemberSessionRepository(db),
      fixture: sqliteAccessFixture(db),
      close,
    };
  },
  async postgres({ pool }) {
    return {
      repo: new PgMemberRepository(pool),
      sessions: new PgMemberSessionRepository(pool),
      fixture: pgAccessFixture(pool),
      close: async () => undefined,
    };
  },
});
