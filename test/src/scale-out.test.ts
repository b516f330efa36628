// Many hosts, measured and broken on purpose (issue #25 item 6): 3 `api` hosts and 2 `worker`s share one state
// behind haproxy; a mixed load (uploads, questions with Idempotency-Key, lists, streams) runs for a bounded time while
// one API host and one worker are killed with SIGKILL and started again. Then: no request failed except those in
// the killed host's hands, every document is `listo` once with no duplicate passages, Σ credit movements = Δ balance
// with no question charged twice, and a per-minute limit is exact across the hosts.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { json } from './support/bearer-call.js';
import { freshSpace } from './support/fresh-space.js';
import { freePort, haproxyUnavailable, startHaproxy } from './support/haproxy.js';
import { startServer, type ServerProcess } from './support/server-process.js';
import { postgresState, postgresUnavailable, type SharedState, sqliteState } from './support/shared-state.js';

const SPACE = 'demo';
const LOAD_MS = Number(process.env.CEREBRO_SCALE_LOAD_MS ?? 10_000);
const CLIENTS = 8;
const KILL_AT_MS = LOAD_MS * 0.35;
const RESTART_AFTER_MS = 1_500;
// The hosts' keep-alive outlasts haproxy's idle reuse, as the README's scaling-out section says: a request is never
// sent on a connection its host is closing.
const ENV = { CEREBRO_COUNTER_FLUSH_MS: '200', CEREBRO_DISCOVER_PLUGINS: 'false', CEREBRO_KEEPALIVE_MS: '75000' };

interface Outcome {
  kind: 'subida' | 'pregunta' | 'lista' | 'stream';
  start: number;
  end: number;
  status: number; // 0: the connection failed
  detail?: string;
}

interface Hosts {
  api: ServerProcess[];
  workers: ServerProcess[];
  ports: number[];
  env: Record<string, string>;
  dataDir: string;
}

async function startHosts(state: SharedState, t: { after(fn: () => unknown): void }): Promise<Hosts> {
  const env = { ...ENV, ...state.env };
  const ports = [await freePort(), await freePort(), await freePort()];
  const hosts: Hosts = { api: [], workers: [], ports, env, dataDir: state.dataDir };
  t.after(async () => {
    for (const s of [...hosts.api, ...hosts.workers])
      if (s.child.exitCode === null && s.child.signalCode === null) await s.crash();
  });
  // The first host runs the first start (demo owner, space, key, operator credential); the others find it done.
  hosts.api.push(
    await startServer(state.dataDir, { ...env, CEREBRO_PORT: String(ports[0]) }, { args: ['--rol', 'api'] }),
  );
  const others = await Promise.all([
    startServer(state.dataDir, { ...env, CEREBRO_PORT: String(ports[1]) }, { args: ['--rol', 'api'] }),
    startServer(state.dataDir, { ...env, CEREBRO_PORT: String(ports[2]) }, { args: ['--rol', 'api'] }),
    startServer(state.dataDir, env, { args: ['--rol', 'worker'] }),
    startServer(state.dataDir, env, { args: ['--rol', 'worker'] }),
  ]);
  hosts.api.push(others[0]!, others[1]!);
  hosts.workers.push(others[2]!, others[3]!);
  return hosts;
}

/** A document of its own: three paragraphs, each carrying the document's code word, so a search finds them all. */
function documentText(n: number): string {
  const code = `codigo${n}x`;
  return [
    `Ficha ${code}. El plazo de entrega del pedido ${code} es de ${(n % 9) + 2} días laborables desde la confirmación del pago, salvo en festivos nacionales.`,
    `Devoluciones del pedido ${code}: se aceptan durante treinta días si el producto está sin usar y con su embalaje original; el reembolso llega en diez días.`,
    `Garantía del pedido ${code}: dos años en todos los aparatos eléctricos; la reparación es gratuita si el fallo es de fábrica y se acredita con la factura.`,
  ].join('\n\n');
}

/** What haproxy logged of requests that did not end normally, added to a failed request's error. */
let balancerTrouble: () => string[] = () => [];

async function request(base: string, key: string, path: string, init: RequestInit = {}) {
  const res = await fetch(`${base}/api${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) },
  }).catch((err: Error & { cause?: { code?: string; message?: string } }) => {
    // undici's "fetch failed" alone does not say whether the balancer or a host closed the connection.
    throw new Error(
      `${init.method ?? 'GET'} ${path} at ${new Date().toISOString()}: ${err.message} (${err.cause?.code ?? ''} ${err.cause?.message ?? ''}); haproxy: ${balancerTrouble().slice(-5).join(' | ')}`,
    );
  });
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs the mixed load through `base` until `stopAt`, one client; every outcome is recorded. */
async function client(
  id: number,
  base: string,
  key: string,
  stopAt: number,
  out: Outcome[],
  uploads: Set<string>,
  questions: Map<string, number>,
): Promise<void> {
  for (let i = 0; Date.now() < stopAt; i++) {
    const roll = (id * 7 + i) % 10;
    const start = Date.now();
    const record = (kind: Outcome['kind'], status: number, detail?: string) =>
      out.push({ kind, start, end: Date.now(), status, detail });
    try {
      if (roll < 2) {
        const name = `doc-${id}-${i}.txt`;
        const form = new FormData();
        form.append('archivos', new Blob([documentText(id * 1000 + i)], { type: 'text/plain' }), name);
        const res = await request(base, key, `/rag/${SPACE}/load_documents`, { method: 'POST', body: form });
        if (res.status < 300) uploads.add(name);
        record('subida', res.status, res.status >= 300 ? JSON.stringify(res.body) : undefined);
      } else if (roll < 5) {
        // A question with its Idempotency-Key, retried with the same key (on whichever host) while the answer fails.
        const idem = `q-${id}-${i}`;
        questions.set(idem, 0);
        let res = { status: 0, body: null as any };
        for (let attempt = 0; attempt < 4; attempt++) {
          const began = Date.now();
          res = await request(
            base,
            key,
            `/rag/${SPACE}/conversations`,
            json(
              'POST',
              { pregunta: `¿Cuánto tarda la entrega del pedido codigo${id * 1000 + i}x?` },
              { 'idempotency-key': idem },
            ),
          ).catch(() => ({ status: 0, body: null }));
          if (res.status > 0 && res.status < 500) break;
          out.push({ kind: 'pregunta', start: began, end: Date.now(), status: res.status, detail: 'reintentada' });
          await new Promise((r) => setTimeout(r, 100));
        }
        if (res.status === 200) questions.set(idem, 1);
        record('pregunta', res.status, res.status !== 200 ? JSON.stringify(res.body) : undefined);
      } else if (roll < 8) {
        const res = await request(base, key, `/rag/${SPACE}/documents?limite=20`);
        record('lista', res.status);
      } else {
        const res = await request(
          base,
          key,
          `/rag/${SPACE}/conversations/stream`,
          json('POST', { pregunta: `¿Qué garantía tiene el pedido codigo${id}x número ${i}?` }),
        );
        record('stream', res.status, res.status !== 200 ? JSON.stringify(res.body) : undefined);
      }
    } catch (err) {
      record(
        (
          [
            'subida',
            'subida',
            'pregunta',
            'pregunta',
            'pregunta',
            'lista',
            'lista',
            'lista',
            'stream',
            'stream',
          ] as const
        )[roll]!,
        0,
        (err as Error).message,
      );
    }
  }
}

async function scaleOut(state: SharedState, t: { after(fn: () => unknown): void; diagnostic(m: string): void }) {
  t.after(() => state.close());
  const hosts = await startHosts(state, t);
  const balancer = await startHaproxy(hosts.ports);
  t.after(() => balancer.stop());
  balancerTrouble = () => balancer.abnormal();
  const secrets = await readFile(join(state.dataDir, 'primer-arranque.txt'), 'utf8');
  const key = /crb_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(secrets)![0];
  const operator = /cra_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}/.exec(secrets)![0];
  const base = balancer.url;

  // Room for the load: no per-minute limit, enough credits.
  assert.equal(
    (await request(base, key, `/companies/${SPACE}/api-config`, json('PATCH', { limite_por_minuto: null }))).status,
    200,
  );
  const account = (await request(base, key, `/companies/${SPACE}/cuenta`)).body.cuenta.id as string;
  const topUp = await request(
    base,
    operator,
    `/admin/cuentas/${account}/creditos`,
    json('POST', { cantidad: 100_000 }),
  );
  assert.equal(topUp.status, 200, JSON.stringify(topUp.body));
  const before = await request(base, key, `/cuentas/${account}/bolsa?movimientos=1`);
  const balanceBefore = before.body.saldo as number;
  const lastMovementBefore = (before.body.movimientos[0]?.id ?? 0) as number;

  const outcomes: Outcome[] = [];
  const uploads = new Set<string>();
  const questions = new Map<string, number>();
  const startedAt = Date.now();
  const stopAt = startedAt + LOAD_MS;
  // From the signal to the end of the process (a process of 500 MB takes a while to die on a busy machine):
  // requests a host accepted in that time were in its hands.
  let killedAt = 0;
  let diedAt = 0;
  const chaos = (async () => {
    await new Promise((r) => setTimeout(r, KILL_AT_MS));
    killedAt = Date.now();
    await Promise.all([hosts.api[1]!.crash(), hosts.workers[0]!.crash()]);
    diedAt = Date.now();
    await new Promise((r) => setTimeout(r, RESTART_AFTER_MS));
    hosts.api[1] = await startServer(
      state.dataDir,
      { ...hosts.env, CEREBRO_PORT: String(hosts.ports[1]) },
      { args: ['--rol', 'api'] },
    );
    hosts.workers[0] = await startServer(state.dataDir, hosts.env, { args: ['--rol', 'worker'] });
  })();
  await Promise.all(
    Array.from({ length: CLIENTS }, (_, id) => client(id, base, key, stopAt, outcomes, uploads, questions)),
  );
  await chaos;

  // 1. Only requests in the killed host's hands failed: begun before the kill, ended after it.
  const failed = outcomes.filter((o) => o.status === 0 || o.status >= 500);
  const outsideKill = failed.filter((o) => !(o.start <= diedAt && o.end >= killedAt));
  const refused = outcomes.filter((o) => o.status >= 400 && o.status < 500);
  t.diagnostic(
    `${state.backend}: ${outcomes.length} peticiones en ${LOAD_MS} ms, ${failed.length} fallidas en vuelo al matar un host (que tardó ${diedAt - killedAt} ms en morir), ${uploads.size} subidas, ${questions.size} preguntas; haproxy: ${balancer.abnormal().length} terminadas de forma anómala (${balancer.abnormal()[0] ?? ''})`,
  );
  const kinds = ['subida', 'pregunta', 'lista', 'stream'] as const;
  t.diagnostic(
    kinds
      .map((k) => {
        const ms = outcomes
          .filter((o) => o.kind === k)
          .map((o) => o.end - o.start)
          .sort((a, b) => a - b);
        return `${k}: ${ms.length}, mediana ${ms[ms.length >> 1] ?? 0} ms`;
      })
      .join('; '),
  );
  assert.deepEqual(
    outsideKill.map((o) => ({ ...o, start: o.start - killedAt, end: o.end - killedAt })),
    [],
    'no request fails except those in flight on the killed host (times from the kill)',
  );
  assert.deepEqual(refused, [], 'no request is refused');
  assert.ok(outcomes.length > CLIENTS * 3, `the load ran (${outcomes.length} requests)`);
  for (const [idem, answered] of questions) assert.equal(answered, 1, `question ${idem} was answered in the end`);

  // 2. Every document `listo` once, with its passages once: the workers that survived and the restarted one
  // finished the killed worker's jobs.
  const status = await until('every document ready', async () => {
    const s = await request(base, key, `/rag/${SPACE}/indexing_status`);
    return s.status === 200 && s.body.listo ? s.body : undefined;
  });
  const names = (status.documentos as { nombre: string; estado: string; pasajes: number }[]).filter((d) =>
    d.nombre.startsWith('doc-'),
  );
  assert.equal(new Set(names.map((d) => d.nombre)).size, names.length, 'one record per document');
  for (const name of uploads)
    assert.ok(
      names.some((d) => d.nombre === name),
      `${name} is stored`,
    );
  for (const d of names) assert.equal(d.estado, 'listo', `${d.nombre} is ready`);
  for (const d of names) {
    const code = /doc-(\d+)-(\d+)\.txt/.exec(d.nombre)!;
    const word = `codigo${Number(code[1]) * 1000 + Number(code[2])}x`;
    const hits = await request(
      base,
      key,
      `/rag/${SPACE}/buscar`,
      json('POST', { pregunta: word, limite: 50, documentos: [d.nombre] }),
    );
    assert.equal(hits.status, 200);
    assert.equal(hits.body.pasajes.length, d.pasajes, `${d.nombre}: its ${d.pasajes} passages are indexed once`);
  }

  // 3. Credits: the movements since the start add up to the change of balance, and no question was charged twice.
  const since: { id: number; delta: number; motivo: string; ruta: string | null }[] = [];
  let saldo: number | undefined;
  for (let beforeId: number | undefined; ; ) {
    const page = await request(
      base,
      key,
      `/cuentas/${account}/bolsa?movimientos=100${beforeId ? `&antes=${beforeId}` : ''}`,
    );
    assert.equal(page.status, 200, JSON.stringify(page.body));
    saldo ??= page.body.saldo as number;
    const fresh = (page.body.movimientos as typeof since).filter((m) => m.id > lastMovementBefore);
    since.push(...fresh);
    if (fresh.length < page.body.movimientos.length || page.body.movimientos.length === 0) break;
    beforeId = page.body.movimientos.at(-1).id;
  }
  const sum = since.reduce((s, m) => s + m.delta, 0);
  assert.equal(sum, saldo! - balanceBefore, 'Σ movements = Δ balance');
  const questionCharges = since.filter((m) => m.ruta?.endsWith('/conversations')).reduce((s, m) => s - m.delta, 0);
  assert.ok(
    questionCharges <= questions.size,
    `questions charged at most once each (${questionCharges} ≤ ${questions.size})`,
  );

  // 4. A per-minute limit of L is L across the three hosts, not L each (a space of its own: the load's calls of
  // this minute are not its).
  const limitedKey = await freshSpace(base, operator, 'limitado');
  const L = 30;
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 8_000) await new Promise((r) => setTimeout(r, left + 50));
  const limit = await request(
    base,
    limitedKey,
    '/companies/limitado/api-config',
    json('PATCH', { limite_por_minuto: L }),
  );
  assert.equal(limit.status, 200, JSON.stringify(limit.body));
  const burst = await Promise.all(
    Array.from({ length: 2 * L }, () => request(base, limitedKey, '/rag/limitado/documents?limite=1')),
  );
  const accepted = burst.filter((r) => r.status === 200).length;
  assert.equal(burst.filter((r) => r.status === 429).length, 2 * L - accepted);
  // The settings route is never refused to the owner's write key, and not counted against the space either.
  assert.equal(accepted, L, `L = ${L}: ${accepted} accepted across three hosts`);
}

test('3 api hosts and 2 workers behind haproxy on one SQLite database: a host and a worker killed mid-load', async (t) => {
  const missing = haproxyUnavailable();
  if (missing) return t.skip(missing);
  await scaleOut(await sqliteState(), t);
});

test('3 api hosts and 2 workers behind haproxy on PostgreSQL + Redis: a host and a worker killed mid-load', async (t) => {
  const missing = haproxyUnavailable() ?? (await postgresUnavailable());
  if (missing) return t.skip(missing);
  await scaleOut(await postgresState(), t);
});
