// A worker to kill mid-job, for pg-indexing.test.ts: on the PostgreSQL database at argv[2], as owner argv[3] with a
// one-second lease it renews while alive, it claims the queued document, stores its passages hidden (a run), and
// then never finishes the job: it hangs until it is killed.
import 'reflect-metadata';
import { CerebroEngine, createPreparePool, type PreparePool } from '../../cerebro/index.js';
import { createPgPool } from '../../storage/postgres/pg-driver.js';
import { pgEngineStorage } from './pg-engine-storage.js';

const [url, owner] = process.argv.slice(2);
if (!url || !owner) throw new Error('uso: pg-hanging-worker.js URL DUEÑO');
const extraction = createPreparePool({ threads: 1 });
const hanging: PreparePool = {
  async prepare(task, signal, onPassages) {
    await extraction.prepare(task, signal, onPassages);
    return new Promise(() => {});
  },
  close: () => extraction.close(),
};
const engine = new CerebroEngine({
  storage: pgEngineStorage(await createPgPool(url)),
  pool: hanging,
  indexing: { owner, leaseMs: 1000, pollMs: 50 },
});
await engine.start();
