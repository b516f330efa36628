// The engine's storage as a host on PostgreSQL resolves it from its container (the repositories shared-backend.ts
// registers), for tests that run the real engine on PostgreSQL.
import { container } from 'tsyringe';
import { resolveToken } from '../../kernel/resolve.js';
import { DocumentJobRepositoryToken } from '../../storage/port/document-job-repository.js';
import type { EngineStorage } from '../../storage/port/engine-storage.js';
import { PassageIndexRepositoryToken } from '../../storage/port/passage-index-repository.js';
import { ProcessLeaseRepositoryToken } from '../../storage/port/process-lease-repository.js';
import { VectorRepositoriesToken } from '../../storage/port/vector-repository.js';
import type { Pool } from '../../storage/postgres/pg-driver.js';
import { registerPgContentRepositories } from '../pg-content-repositories.js';
import { registerPgAccessRepositories } from '../pg-repositories.js';

export function pgEngineStorage(pool: Pool): EngineStorage {
  const c = container.createChildContainer();
  registerPgAccessRepositories(c, pool);
  registerPgContentRepositories(c, pool);
  return {
    documents: resolveToken(c, DocumentJobRepositoryToken),
    leases: resolveToken(c, ProcessLeaseRepositoryToken),
    vectors: resolveToken(c, VectorRepositoriesToken),
    passages: resolveToken(c, PassageIndexRepositoryToken),
  };
}
