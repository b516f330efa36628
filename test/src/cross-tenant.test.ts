import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { startTestHost, type TestClient } from '@cerebro/sdk/testing';
import { errorBodyProblem } from './support/error-body.js';
import { intrusions, type Victim } from './support/intruder-requests.js';
import { label, operationsOf } from './support/openapi-operations.js';
import { rawRequest } from './support/raw-http.js';
import { snapshot } from './support/snapshot.js';
import { createTenant, seedSpace, SEEDED_MODULES } from './support/tenant.js';

/** Everything a victim's own session can read about its space: what must be the same after the intrusions. */
function victimReads(victim: Victim): string[] {
  const { space, document, salesConversation, ragConversation, fuente, ficha, landing, webhook } = victim.seeded;
  return [
    '/companies',
    '/tokens',
    `/rag/${space}/documents`,
    `/rag/${space}/documents/${encodeURIComponent(document.nombre)}`,
    `/rag/${space}/config`,
    `/rag/${space}/conversations`,
    `/rag/${space}/conversations/${ragConversation}`,
    `/rag/${space}/preguntas_sin_respuesta`,
    `/companies/${space}/api-config`,
    `/companies/${space}/webhooks`,
    `/companies/${space}/webhooks/${webhook}/entregas`,
    `/companies/${space}/cuenta`,
    `/mod/marca/${space}/config`,
    `/mod/ventas/${space}/leads-config`,
    `/mod/ventas/${space}/productos?limite=1000`,
    `/mod/ventas/${space}/conversaciones?limite=1000`,
    `/mod/ventas/${space}/conversaciones/${salesConversation}`,
    `/mod/landing/${space}/landings?limite=200`,
    `/mod/landing/${space}/landings/${landing}`,
    `/mod/landing/${space}/landings/${landing}/html`,
    ...(victim.accountId ? [`/cuentas/${victim.accountId}/bolsa`] : []),
    ...(fuente ? [`/mod/fuentes/${space}/fuentes/${fuente}`, `/mod/fuentes/${space}/fichas/${ficha}`] : []),
  ];
}

test("no credential of one owner reads or changes another owner's data, on any route of the OpenAPI document", async (t) => {
  const h = await startTestHost(t, { discover: true, spaceId: 'a-uno', credits: 1_000_000 });
  const modules = [...new Set([...SEEDED_MODULES, ...h.host.plugins.map((p) => p.manifest.id)])];

  // Owner A: the intruder, with every kind of credential; a second space of A is foreign to A's one-space key.
  await h.admin.createSpace({ id: 'a-dos', ownerId: h.ownerId, modules });
  const sessionA = (await h.admin.issueConsoleSession(h.ownerId)).token;
  const limitedA = (await h.admin.issueKey(h.ownerId, 'solo-a-uno', ['a-uno'], 'escribe')).token;
  const aDosKey = await h.admin.issueKey(h.ownerId, 'solo-a-dos', ['a-dos'], 'escribe');
  // Owner B: the victim, with data of every kind.
  const b = await createTenant(h.admin, 'Propietaria B', 'b-espacio', modules);
  const bReadKey = await h.admin.issueKey(b.ownerId, 'b-lee', [], 'lee');
  const victimB: Victim = {
    name: 'owner B',
    keyIds: [b.writeKey.id, bReadKey.id],
    accountId: b.accountId,
    seeded: await seedSpace(h.client.as(b.session), 'b-espacio', 'secretobeta'),
  };
  const victimADos: Victim = {
    name: "A's other space",
    keyIds: [aDosKey.id],
    seeded: await seedSpace(h.client.as(sessionA), 'a-dos', 'secretoados'),
  };
  // A's own key ids, for the control of routes about one key (`GET /tokens/{id}/uso`); `crb_<16 hex id>.<secret>`.
  const ownA: Victim = {
    name: 'A itself',
    keyIds: [h.writeKey.slice(4, 20)],
    accountId: h.accountId,
    seeded: await seedSpace(h.client.as(sessionA), 'a-uno', 'datospropios'),
  };

  const intruders: { kind: string; credential: string; victims: Victim[] }[] = [
    { kind: 'write key', credential: h.writeKey, victims: [victimB] },
    { kind: 'read key', credential: h.readKey, victims: [victimB] },
    { kind: 'key limited to one space', credential: limitedA, victims: [victimB, victimADos] },
    { kind: 'console session', credential: sessionA, victims: [victimB] },
  ];
  const readerOf = new Map<Victim, TestClient>([
    [victimB, h.client.as(b.session)],
    [victimADos, h.client.as(sessionA)],
  ]);
  const before = new Map<Victim, Awaited<ReturnType<typeof snapshot>>>();
  for (const [victim, reader] of readerOf) before.set(victim, await snapshot(reader, victimReads(victim)));

  // Signing out (`DELETE /sesion`) ends the caller's own session and nobody else's: it is no intrusion, and sent with
  // A's session it would only leave A's reader signed out for the rest of the sweep. Routes for anyone (`public`,
  // and plugins' `visitor` routes, which read no credential and answer only an unguessable token) hold no tenant's
  // data to intrude on; their own tests (landing's publication tests) check they reveal nothing else.
  const operations = operationsOf((await h.client.get('/openapi.json', { key: null })).body).filter(
    (op) => op.access !== 'public' && op.access !== 'visitor' && !(op.method === 'DELETE' && op.path === '/sesion'),
  );
  const failures: string[] = [];
  // Control: the same reads aimed at A's own data succeed, so the refusals below come from tenancy, not from
  // requests too malformed to ever succeed.
  // (At least one of the ids per route: a document is also tried by id, a sales conversation by a question's id.)
  // Operator routes are left out of the control: no owner credential ever gets a 200 there (the loop below checks 403).
  for (const op of operations.filter((o) => o.method === 'GET' && o.access !== 'admin')) {
    const own = intrusions(op, sessionA, 'a-uno', ownA).filter((i) => i.variant !== 'own space, foreign ids');
    const statuses = await Promise.all(own.map(async (i) => (await rawRequest(h.url, i.request)).status));
    if (!statuses.includes(200))
      failures.push(
        `control ${label(op)}: ${statuses.join(', ')} for A's own ${own.map((i) => i.request.path).join(', ')}`,
      );
  }
  let sent = 0;
  for (const op of operations) {
    for (const intruder of intruders) {
      for (const victim of intruder.victims) {
        for (const intrusion of intrusions(op, intruder.credential, 'a-uno', victim)) {
          sent++;
          const res = await rawRequest(h.url, intrusion.request);
          const problems: string[] = [];
          if (res.status >= 500) problems.push(`status ${res.status}`);
          if (op.access === 'admin' && res.status !== 403)
            problems.push(`status ${res.status} on an operator route, not 403`);
          else if (intrusion.namesForeignResource && res.status !== 403 && res.status !== 404)
            problems.push(`status ${res.status}, not 403/404`);
          const shape = errorBodyProblem(res, op.openAiErrors);
          if (shape) problems.push(shape);
          if (res.text.includes(victim.seeded.marker)) problems.push(`the answer shows ${victim.name}'s data`);
          if (res.status < 300 && !intrusion.namesForeignResource) {
            const sent = `${intrusion.request.path} ${String(intrusion.request.body ?? '')}`;
            const named = [victim.seeded.space, ...victim.keyIds].filter(
              (id) => res.text.includes(id) && !sent.includes(id),
            );
            if (named.length > 0) problems.push(`the answer lists ${victim.name}'s ${named.join(', ')}`);
          }
          const input = `${intruder.kind} → ${intrusion.variant}: ${intrusion.request.method} ${intrusion.request.path} ${String(intrusion.request.body ?? '').slice(0, 200)}`;
          for (const problem of problems) {
            failures.push(`${label(op)}: ${problem} (${res.status}: ${res.text.slice(0, 160)})\n  for ${input}`);
          }
        }
      }
    }
    // After each route, so a change is blamed on the route that made it.
    for (const [victim, reader] of readerOf) {
      const now = await snapshot(reader, victimReads(victim));
      const changed = Object.keys(now).filter((path) => !isDeepStrictEqual(now[path], before.get(victim)![path]));
      if (changed.length > 0) failures.push(`${label(op)}: changed ${victim.name}'s ${changed.join(', ')}`);
      before.set(victim, now);
    }
  }
  // The victim's keys still work: nothing was revoked through a foreign route.
  assert.equal((await h.client.get('/companies', { key: b.writeKey.token })).status, 200);
  assert.equal((await h.client.get('/companies', { key: aDosKey.token })).status, 200);
  t.diagnostic(`${sent} intruding requests over ${operations.length} routes`);
  assert.deepEqual(failures, []);
});
