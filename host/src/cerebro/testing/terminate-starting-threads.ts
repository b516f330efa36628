// For pool-termination.test.ts: `argv[2]` rounds of a preparation pool whose task is aborted (terminating its
// thread, so piscina starts another for the next task) and which is then closed while that thread may still be
// loading its worker. The delays sweep the start window round after round instead of being random, so that a run
// is the same every time. Exits 0 when every round ended; a crash of Node aborts the process instead.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createPreparePool } from '../extract/pool.js';

const rounds = Number(process.argv[2] ?? 100);
const dir = await mkdtemp(join(tmpdir(), 'cerebro-hilos-'));
const path = join(dir, 'nota.txt');
await writeFile(path, 'Una nota breve para preparar.\n');
try {
  for (let round = 0; round < rounds; round++) {
    const pool = createPreparePool();
    const aborted = new AbortController();
    const first = pool.prepare({ path, name: 'nota.txt' }, aborted.signal).catch(() => null);
    await delay(round % 60);
    aborted.abort();
    await first;
    const second = pool.prepare({ path, name: 'nota.txt' }).catch(() => null);
    await delay((round * 7) % 100);
    await pool.close();
    await second;
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
