/**
 * Failures the harnesses find in code other branches are fixing at the same time (issue #16). Each entry lets its
 * own failure pass, and nothing else; the integrator empties this list after merging those branches, and any entry
 * that still matches then is a defect left open.
 */
export interface Finding {
  suite: 'fuzz' | 'cross-tenant';
  /** `METHOD /template` as in the OpenAPI document. */
  route: string;
  status: number;
  problem: string;
  /** What was sent, for the report. */
  input: string;
}

export interface KnownDefect {
  suite: Finding['suite'];
  route: string;
  /** What is wrong and which branch fixes it. */
  defect: string;
  matches(f: Finding): boolean;
}

// Inputs are shown JSON-encoded, so a key's quotes may come escaped.
const PROTOTYPE_KEY = /\\?"(__proto__|constructor|prototype|toString|valueOf|hasOwnProperty|isPrototypeOf|propertyIsEnumerable|toLocaleString|__defineGetter__|__lookupGetter__)\\?"\s*:/;
/** A prototype name sent as a key, answered with a 500, let through, or refused with a malformed 422 item. */
const sentPrototypeKey = (f: Finding) =>
  PROTOTYPE_KEY.test(f.input) && (f.status >= 500 || f.problem.startsWith('let through') || f.problem.startsWith('validation item'));
const serverError = (f: Finding) => f.status >= 500;
const pagingParameter = (names: string) => (f: Finding) => serverError(f) && new RegExp(`[?&](${names})=`).test(f.input);

export const KNOWN_DEFECTS_UNTIL_MERGE: readonly KnownDefect[] = [
  {
    suite: 'fuzz', route: 'PATCH /rag/{espacio}/config',
    defect: 'prototype names as keys: 500 (__proto__, valueOf, …), isPrototypeOf let through with 200, constructor → 422 whose msg is not a string (rag config validator)',
    matches: sentPrototypeKey,
  },
  {
    suite: 'fuzz', route: 'PATCH /mod/ventas/{espacio}/leads-config',
    defect: 'prototype names as keys: 500 (__proto__, valueOf, …), isPrototypeOf let through with 200 (ventas leads-config validator)',
    matches: sentPrototypeKey,
  },
  { suite: 'fuzz', route: 'GET /rag/{espacio}/documents', defect: '?desde=1e20 → 500', matches: pagingParameter('desde|limite') },
  { suite: 'fuzz', route: 'GET /mod/ventas/{espacio}/conversaciones', defect: '?desde=1e20 → 500', matches: pagingParameter('desde|limite') },
  {
    suite: 'fuzz', route: 'GET /cuentas/{cuenta}/bolsa',
    defect: '?movimientos=1.5 → 500 (same class as ?desde=1e20: a query number not checked to be an integer; host/src/routes)',
    matches: pagingParameter('movimientos'),
  },
  { suite: 'fuzz', route: 'PUT /admin/espacios/{espacio}/modulos/{modulo}', defect: 'unknown space id → 500 (admin routes)', matches: serverError },
  ...['PATCH /admin/espacios/{espacio}', 'PATCH /admin/cuentas/{cuenta}', 'POST /admin/propietarios/{id}/claves'].map((route): KnownDefect => ({
    suite: 'fuzz', route,
    defect: 'a prototype name with null (`{"constructor": null}`) is accepted where `{"campo_inventado": null}` is refused (admin validators)',
    matches: (f) => sentPrototypeKey(f) && f.problem.startsWith('let through'),
  })),
  {
    suite: 'cross-tenant', route: 'GET /tokens',
    defect: 'a key limited to one space lists the keys of the owner\'s other spaces (GET /tokens beyond the caller\'s reach)',
    matches: (f) => f.input.startsWith('key limited to one space') && f.problem.startsWith('the answer lists A\'s other space'),
  },
];

/** The known defect this finding is, if any; every match is also recorded for the end-of-run summary. */
export function knownDefect(f: Finding): KnownDefect | undefined {
  const hit = KNOWN_DEFECTS_UNTIL_MERGE.find((d) => d.suite === f.suite && d.route === f.route && d.matches(f));
  if (hit) seen.push({ defect: hit, finding: f });
  return hit;
}

const seen: { defect: KnownDefect; finding: Finding }[] = [];

/**
 * One line per known defect of `suite` hit since the last call, with one example input, so a gated failure is never
 * silent; and one per entry not hit, which after the merge tells the integrator the entry may go.
 */
export function knownDefectSummary(suite: Finding['suite']): string[] {
  const first = new Map<KnownDefect, Finding>();
  for (const { defect, finding } of seen.splice(0)) if (!first.has(defect)) first.set(defect, finding);
  const hit = [...first].map(([d, f]) => `known defect (until merge): ${d.route} → ${f.status}: ${d.defect}; e.g. ${f.input.slice(0, 300)}`);
  const unseen = KNOWN_DEFECTS_UNTIL_MERGE.filter((d) => d.suite === suite && !first.has(d)).map((d) => `known defect not seen in this test: ${d.route}: ${d.defect}`);
  return [...hit, ...unseen];
}
