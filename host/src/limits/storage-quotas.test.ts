// Storage quotas across processes: each process has its own AccountStorageQuotas over the shared database, so two
// instances on one database stand for two api hosts. Room one holds must count for the other (it used to be held in
// each process's memory, and two hosts could each admit an upload into the same last room).
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiError } from '@cerebro/sdk';
import type { HostConfig } from '../config/host-config.js';
import { onEachBackend } from '../storage/contracts/each-backend.js';
import type { StorageQuotaRepository } from '../storage/port/storage-quota-repository.js';
import { PgStorageQuotaRepository } from '../storage/postgres/pg-storage-quota-repository.js';
import { migratedTestDatabase } from '../storage/sqlite/migrated-test-database.js';
import { SqliteStorageQuotaRepository } from '../storage/sqlite/storage-quota-repository.js';
import { AccountStorageQuotas, HOLD_TTL_MS } from './storage-quotas.js';

const at = '2026-01-01T00:00:00.000Z';
/** Account `c`: one space holding a 100-byte document; its own quota 1,000 bytes and 3 documents. */
const SEED = [
  `INSERT INTO owners (id, name, created_at) VALUES ('p', 'P', '${at}')`,
  `INSERT INTO accounts (id, owner_id, created_at, quota_bytes, quota_documents) VALUES ('c', 'p', '${at}', 1000, 3)`,
  `INSERT INTO spaces (id, name, owner_id, account_id, created_at) VALUES ('e', 'E', 'p', 'c', '${at}')`,
  `INSERT INTO cerebro_documents (space, id, name, media_type, bytes, path, state, created_at, updated_at, queued_at)
   VALUES ('e', 'd1', 'd1.txt', 'text/plain', 100, 'd1.txt', 'ready', '${at}', '${at}', '${at}')`,
];

const config = { quotaBytes: 0, quotaDocuments: 0 } as HostConfig;

interface Fixture {
  /** A repository on the shared database, as one more process would open it. */
  repo(): StorageQuotaRepository;
  close(): Promise<void>;
}

const refusedWith = (codigo: string) => (err: unknown) => (err as ApiError).code === codigo;

function quotasContract(name: string, make: () => Promise<Fixture>): void {
  test(`${name}: room held by one process counts in another's check until it is given back`, async () => {
    const f = await make();
    try {
      let now = 5_000_000;
      const clock = { now: () => now };
      const hostA = new AccountStorageQuotas(f.repo(), config, clock);
      const hostB = new AccountStorageQuotas(f.repo(), config, clock);
      const a = await hostA.hold('c', { bytes: 800, documents: 1 });
      // 100 stored + 800 held by A: 150 more does not fit on B (it would on B alone).
      await assert.rejects(hostB.hold('c', { bytes: 150, documents: 1 }), refusedWith('storage_quota_bytes'));
      const b = await hostB.hold('c', { bytes: 100, documents: 1 });
      // 1 stored + 1 held by A + 1 held by B: a fourth document does not fit, on either.
      await assert.rejects(hostA.hold('c', { bytes: 0, documents: 1 }), refusedWith('storage_quota_documents'));
      // Already full counting the holds: refused before any body is read.
      await assert.rejects(hostB.assertRoom('c'), refusedWith('storage_quota_bytes'));
      await a.release();
      await a.release(); // twice: nothing more given back
      const c = await hostB.hold('c', { bytes: 150, documents: 1 });
      await Promise.all([b.release(), c.release()]);
      await hostA.assertRoom('c');
      // A hold adding nothing (a document replaced by a smaller one) always fits and holds nothing.
      const none = await hostA.hold('c', { bytes: -50, documents: 0 });
      await none.release();

      // A process that dies holding room: its hold lapses HOLD_TTL_MS later (nothing renews it any more).
      const dead = new AccountStorageQuotas(f.repo(), config, clock);
      await dead.hold('c', { bytes: 850, documents: 1 });
      await assert.rejects(hostA.hold('c', { bytes: 100, documents: 1 }), refusedWith('storage_quota_bytes'));
      now += HOLD_TTL_MS;
      await (await hostA.hold('c', { bytes: 100, documents: 1 })).release();
    } finally {
      await f.close();
    }
  });

  test(`${name}: of parallel uploads on two processes, never more are let in than fit`, async () => {
    const f = await make();
    try {
      const clock = { now: () => Date.now() };
      const hosts = [
        new AccountStorageQuotas(f.repo(), config, clock),
        new AccountStorageQuotas(f.repo(), config, clock),
      ];
      // 900 bytes of room and 2 documents: each upload of 1 document and 300 bytes; exactly 2 fit (checks take turns).
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => hosts[i % 2]!.hold('c', { bytes: 300, documents: 1 })),
      );
      const admitted = outcomes.filter((o) => o.status === 'fulfilled');
      assert.equal(admitted.length, 2);
      for (const o of outcomes)
        if (o.status === 'rejected') assert.match((o.reason as ApiError).code, /^storage_quota_(bytes|documents)$/);
      await Promise.all(
        admitted.map((o) => (o as PromiseFulfilledResult<{ release(): Promise<void> }>).value.release()),
      );
    } finally {
      await f.close();
    }
  });
}

await onEachBackend(quotasContract, {
  async sqlite() {
    const { db, close } = await migratedTestDatabase();
    for (const sql of SEED) db.exec(sql);
    return { repo: () => new SqliteStorageQuotaRepository(db), close };
  },
  async postgres({ pool }) {
    for (const sql of SEED) await pool.query(sql);
    return { repo: () => new PgStorageQuotaRepository(pool), close: async () => undefined };
  },
});
