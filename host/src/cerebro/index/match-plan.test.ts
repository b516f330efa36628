import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migratedDb } from '../testing/fixtures.js';
import { seedDocument, sqlitePassageIndex } from '../testing/seed.js';
import { queryTermGroups } from '../text/analyzer.js';
import { runMatchPlan } from '../../storage/sqlite/passage-index/match-plan-sql.js';
import type { MatchedRow, MatchPlan } from './passage-index.js';

/** A prepared statement stand-in answering each expression with its own rows, recording what it was asked. */
function fakeMatch(rowsOf: Record<string, number[]>) {
  const asked: { expression: string; limit: number }[] = [];
  return {
    asked,
    all(expression: unknown, limit: unknown): MatchedRow[] {
      asked.push({ expression: String(expression), limit: Number(limit) });
      return (rowsOf[String(expression)] ?? []).slice(0, Number(limit)).map((id, i) => ({ id, rank: -10 + i }));
    },
  };
}

const plan = (over: Partial<MatchPlan>): MatchPlan => ({
  all: 'A B',
  each: ['A', 'B'],
  k: 2,
  depth: 3,
  wordDepth: 4,
  spacePassages: 0,
  ...over,
});

test("each word's best rows are taken in turn after the conjunctive rows, none twice", async () => {
  const match = fakeMatch({ 'A B': [7], A: [1, 2, 7, 3], B: [7, 4, 5] });
  assert.deepEqual(
    runMatchPlan(match, plan({})).map((r) => r.id),
    [7, 1, 2, 4, 5, 3],
  );
  assert.deepEqual(match.asked, [
    { expression: 'A B', limit: 3 },
    { expression: 'A', limit: 4 },
    { expression: 'B', limit: 4 },
  ]);
});

test('enough rows with every word: the matches on each word are not run', async () => {
  const match = fakeMatch({ 'A B': [1, 2, 3], A: [4] });
  assert.deepEqual(
    runMatchPlan(match, plan({})).map((r) => r.id),
    [1, 2, 3],
  );
  assert.equal(match.asked.length, 1);
});

test('no content word: no rows', async () => {
  assert.deepEqual(runMatchPlan(fakeMatch({}), plan({ all: null, each: [] })), []);
});

test("a passage's place among the candidates does not depend on another space's documents", async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db);
  // 60 passages that say "mesa", and one, added last, that says "roble": in this space "roble" is the rare word.
  await seedDocument(db, index, 'tienda', 'catalogo.md', [
    ...Array.from({ length: 60 }, (_, i) => ({ text: `La mesa ${i} es de pino y mide un metro.` })),
    { text: 'El roble macizo es nuestra madera más dura.' },
  ]);
  const groups = queryTermGroups('mesa de roble');
  const before = (await index.searchGroups('tienda', groups, 5)).map((h) => h.text);
  assert.equal(before[0], 'El roble macizo es nuestra madera más dura.');
  // A neighbour that says "roble" everywhere: over the whole index "roble" is now the common word, and a match on
  // either word ranked by the whole index's statistics put the 60 "mesa" passages first and left this one out.
  await seedDocument(
    db,
    index,
    'vecino',
    'maderas.md',
    Array.from({ length: 400 }, (_, i) => ({ text: `El roble ${i} y el roble americano.` })),
  );
  assert.deepEqual(
    (await index.searchGroups('tienda', groups, 5)).map((h) => h.text),
    before,
  );
});
