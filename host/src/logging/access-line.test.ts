import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pino } from 'pino';
import { accessLineOf } from './access-line.js';
import { createRootLogger } from './logger.js';

/** The lines a root logger wrote, with the time (which differs between two calls) blanked. */
async function linesOf(write: (log: ReturnType<typeof createRootLogger>) => void): Promise<string[]> {
  const written: string[] = [];
  const root = createRootLogger('info', { write: (chunk: string) => written.push(chunk) });
  write(root);
  await nextTurn();
  return written
    .join('')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.replace(/"time":\d+/, '"time":0'));
}

const cases: [string, number, number, number, string | undefined, string | undefined][] = [
  ['7d2a8fc1-4a5e-455d-b142-19d532042ecc', 200, 0.12, 0, 'demo', 'd95f12fc2c5f8053'],
  ['traza-1', 401, 3, 0, undefined, undefined],
  ['a.b:c_d', 503, 12.5, 7.25, 'espacio-uno', undefined],
  ['comillas " y \\ barra', 500, Number.NaN, Number.POSITIVE_INFINITY, 'ñandú', undefined],
  ['control \u0001\n', 429, 1, 0, undefined, 'clave con espacio'],
];

test('the access line is byte for byte what pino writes for the same fields, bindings included', async () => {
  const route = { method: 'GET', route: 'GET /companies/:espacio' };
  const byPino = await linesOf((root) => {
    const log = root.child(route);
    for (const [reqId, status, ms, waitMs, espacio, clave] of cases)
      log.info({ reqId, status, ms, espera_ms: waitMs, espacio, clave }, 'petición');
  });
  const byTemplate = await linesOf((root) => {
    const line = accessLineOf(root.child(route));
    for (const c of cases) line(...c);
  });
  assert.equal(byTemplate.length, cases.length);
  assert.deepEqual(byTemplate, byPino);
  assert.deepEqual(JSON.parse(byTemplate[0]!), {
    level: 30,
    time: 0,
    service: 'cerebro',
    method: 'GET',
    route: 'GET /companies/:espacio',
    reqId: cases[0]![0],
    status: 200,
    ms: 0.12,
    espera_ms: 0,
    espacio: 'demo',
    clave: 'd95f12fc2c5f8053',
    msg: 'petición',
  });
});

test('no access line above the info level; a logger not made by createRootLogger gets pino itself', async () => {
  const quiet = await linesOf((root) => {
    root.level = 'warn';
    accessLineOf(root.child({ method: 'GET', route: 'GET /x' }))('r', 200, 1, 0, undefined, undefined);
  });
  assert.deepEqual(quiet, []);

  const written: string[] = [];
  const other = pino({ base: null, timestamp: false }, { write: (chunk: string) => written.push(chunk) });
  accessLineOf(other)('r', 200, 1, 0, 'demo', undefined);
  assert.deepEqual(
    written.map((l) => JSON.parse(l)),
    [{ level: 30, reqId: 'r', status: 200, ms: 1, espera_ms: 0, espacio: 'demo', msg: 'petición' }],
  );
});
