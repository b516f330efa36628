import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { startTestHost, type Cleanup, type TestClient } from '@cerebro/sdk/testing';
import { errorBodyProblem } from './error-body.js';
import type { FuzzWorld } from './fuzz-case.js';
import { isWrite, operationsOf, type Operation } from './openapi-operations.js';
import { rawRequest, type RawRequest, type RawResponse } from './raw-http.js';
import { snapshot, type Snapshot } from './snapshot.js';
import { unsafeAcceptedNames } from './stored-names.js';
import { createTenant, seedSpace, SEEDED_MODULES, type SeededSpace } from './tenant.js';

/** A host with every workspace plugin, a seeded space to attack, and the checks every answer must pass. */
export interface FuzzTarget {
  url: string;
  spaceId: string;
  seeded: SeededSpace;
  operations: Operation[];
  world: FuzzWorld;
  /**
   * Sends the request and returns what is wrong with the outcome (empty when nothing is). With `prototypeKeys`
   * (prototype names the body sends as undeclared keys) and an accepted answer, `ordinary` (the same body with
   * ordinary unknown names) is sent too: a route may ignore unknown fields, it may not refuse `campo_inventado`
   * yet let `__proto__` through.
   */
  probe(
    op: Operation,
    request: RawRequest,
    prototypeKeys?: string[],
    ordinary?: () => RawRequest,
  ): Promise<{ res: RawResponse; problems: string[] }>;
  healthy(): Promise<boolean>;
}

/** What must hold for every answer: no 5xx but documented 503s, and errors shaped `{"detail": ...}`. */
function responseProblems(op: Operation, res: RawResponse): string[] {
  const problems: string[] = [];
  if (res.status >= 500 && !(res.status === 503 && op.documented.has(503)))
    problems.push(`status ${res.status}: ${res.text.slice(0, 200)}`);
  const shape = errorBodyProblem(res, op.openAiErrors);
  if (shape) problems.push(shape);
  return problems;
}

export async function startFuzzTarget(t: Cleanup): Promise<FuzzTarget> {
  const h = await startTestHost(t, { discover: true, credits: 1_000_000, spaceId: 'fuzz' });
  const installed = h.host.plugins.map((p) => p.manifest.id);
  const session = (await h.admin.issueConsoleSession(h.ownerId)).token;
  const owner = h.client.as(session);
  const seeded = await seedSpace(owner, h.spaceId, 'fuzzdato');
  const throwawayKey = await h.admin.issueKey(h.ownerId, 'desechable', [], 'lee');
  // Admin routes act on a tenant of their own, so a successful hostile write cannot take the fuzzed space away.
  const victim = await createTenant(h.admin, 'Victima', 'victima', [...new Set([...SEEDED_MODULES, ...installed])]);
  const operator = (await h.admin.issueOperatorCredential('fuzz')).token;
  const operations = operationsOf((await h.client.get('/openapi.json', { key: null })).body);
  assert.ok(operations.length > 30, 'the OpenAPI document lists the routes');

  const world: FuzzWorld = {
    credential: (op) => (op.access === 'admin' ? operator : session),
    otherCredentials: [h.writeKey, h.readKey, operator],
    realParams: (op): Record<string, string[]> =>
      op.access === 'admin'
        ? {
            id: [victim.ownerId],
            espacio: ['victima'],
            cuenta: [victim.accountId],
            modulo: ['ventas', 'api', ...installed],
          }
        : {
            espacio: [h.spaceId],
            cuenta: [h.accountId],
            archivo: [seeded.document.nombre, seeded.document.id],
            producto: [seeded.product],
            conversacion: [seeded.salesConversation, seeded.ragConversation],
            id: [throwawayKey.id],
            fuente: [seeded.fuente],
            ficha: [seeded.ficha],
            webhook: [seeded.webhook],
            entrega: [seeded.entrega],
          },
  };

  const s = h.spaceId;
  const bolsa = `/cuentas/${h.accountId}/bolsa`;
  const mainReads: Record<string, string[]> = {
    rag: [`/rag/${s}/documents`, `/rag/${s}/config`, bolsa],
    companies: ['/companies', `/companies/${s}/api-config`, `/companies/${s}/cuenta`],
    cuentas: [bolsa],
    tokens: ['/tokens'],
    'mod/marca': [`/mod/marca/${s}/config`, `/mod/marca/${s}/persona`],
    'mod/ventas': [
      `/mod/ventas/${s}/leads-config`,
      `/mod/ventas/${s}/productos?limite=1000`,
      `/mod/ventas/${s}/conversaciones?limite=1000`,
      `/mod/ventas/${s}/conversaciones/${seeded.salesConversation}`,
      bolsa,
    ],
    'mod/landing': [`/mod/landing/${s}/landings?limite=200`, `/mod/landing/${s}/landings/${seeded.landing}`, bolsa],
  };
  const victimReads = [
    '/companies',
    '/companies/victima/api-config',
    '/companies/victima/cuenta',
    '/tokens',
    `/cuentas/${victim.accountId}/bolsa`,
  ];
  const victimClient = h.client.as(victim.session);

  /** The reads that show what a write to this route could change, and who reads them. */
  function readsFor(op: Operation): { group: string; client: TestClient; paths: string[] } {
    if (op.access === 'admin') return { group: 'admin', client: victimClient, paths: victimReads };
    const [first, second] = op.path.split('/').filter(Boolean);
    const group = first === 'mod' ? `mod/${second}` : first!;
    return { group, client: owner, paths: mainReads[group] ?? [...new Set(Object.values(mainReads).flat())] };
  }

  // The last snapshot per group stays valid until any write is accepted (only refused writes must change nothing).
  const lastSnapshot = new Map<string, Snapshot>();

  async function probe(op: Operation, request: RawRequest, prototypeKeys: string[] = [], ordinary?: () => RawRequest) {
    const reads = isWrite(op) ? readsFor(op) : undefined;
    const before = reads && (lastSnapshot.get(reads.group) ?? (await snapshot(reads.client, reads.paths)));
    const res = await rawRequest(h.url, request);
    const problems = responseProblems(op, res);
    const unsafe = res.status < 300 ? unsafeAcceptedNames(res.json) : [];
    if (unsafe.length > 0)
      problems.push(`accepted document names that act as paths or hide text: ${JSON.stringify(unsafe)}`);
    if (reads && before) {
      if (res.status >= 400 && res.status < 500) {
        const after = await snapshot(reads.client, reads.paths);
        const changed = Object.keys(after).filter((p) => !isDeepStrictEqual(after[p], before[p]));
        if (changed.length > 0) problems.push(`refused write (${res.status}) changed ${changed.join(', ')}`);
        lastSnapshot.set(reads.group, after);
      } else {
        // An accepted write may change other groups' reads too (a question spends credits shown by the pool).
        lastSnapshot.clear();
      }
    }
    if (res.status < 300 && prototypeKeys.length > 0 && ordinary) {
      const refused = await rawRequest(h.url, ordinary());
      if (refused.status === 422)
        problems.push(
          `let through ${JSON.stringify(prototypeKeys)} (${res.status}), though an ordinary unknown field is refused (422)`,
        );
    }
    return { res, problems };
  }

  const healthy = async () => (await rawRequest(h.url, { method: 'GET', path: '/api/health' })).status === 200;
  return { url: h.url, spaceId: h.spaceId, seeded, operations, world, probe, healthy };
}
