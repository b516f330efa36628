import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migratedDb } from '../testing/fixtures.js';
import { seedDocument, sqlitePassageIndex } from '../testing/seed.js';
import { idfOf } from '../index/space-stats.js';
import { queryTermGroups, termOf } from './analyzer.js';
import {
  BACKGROUND_PRIOR,
  type BackgroundPrior,
  backgroundShare,
  blendedCounts,
  PRIOR_STRENGTH,
} from './background-prior.js';

const PRIOR: BackgroundPrior = { documents: 999, df: { tiemp: 300, preci: 20 } };

test('the shipped prior loads: general Spanish words are listed by their index terms, common ones more often', async () => {
  assert.ok(BACKGROUND_PRIOR.documents > 500);
  const df = (word: string) => BACKGROUND_PRIOR.df[termOf(word, 'es')] ?? 0;
  assert.ok(df('tiempo') > 100, 'an everyday word is in many chunks');
  assert.ok(df('tiempo') > df('garantía'));
  assert.equal(df('instantáneas'), 0, 'a technical word is rare in everyday Spanish');
  // Every stored count is a whole number of chunks, at least the builder's minimum.
  assert.ok(Object.values(BACKGROUND_PRIOR.df).every((n) => Number.isInteger(n) && n >= 3));
});

test("a word's background share is its most frequent alternative's, smoothed so that no word is certain or impossible", async () => {
  assert.equal(backgroundShare(PRIOR, ['tiemp', 'time']), 300.5 / 1000);
  assert.equal(backgroundShare(PRIOR, ['preci', 'tiemp']), 300.5 / 1000);
  // Unlisted (rarer than the builder kept, or unknown): counted as one chunk, never zero.
  assert.equal(backgroundShare(PRIOR, ['nextcloud']), 1.5 / 1000);
  assert.equal(backgroundShare(PRIOR, ['constructor']), 1.5 / 1000, 'a property of every object is no term');
  assert.equal(backgroundShare(PRIOR, []), 1.5 / 1000);
});

test("blending adds the prior as pseudo-passages: a small space's weights follow the prior, a large one's its own counts", async () => {
  assert.deepEqual(blendedCounts({ passages: 16, df: 2 }, 0.1, 100), { passages: 116, df: 12 });
  const idf = (passages: number, df: number, share: number) => {
    const b = blendedCounts({ passages, df }, share);
    return idfOf(b.passages, b.df);
  };
  // Small space: a generic word it lacks now weighs less than a rare one it lacks (unblended they were equal).
  assert.ok(idf(16, 0, 0.3) < idf(16, 0, 0.0015));
  // Large space: its own counts decide; the prior barely moves a word's weight, even one general Spanish uses ten
  // times as often.
  const own = idfOf(50_000, 50);
  assert.ok(Math.abs(idf(50_000, 50, 0.01) - own) / own < 0.05);
  assert.ok(PRIOR_STRENGTH > 0);
});

test('in a small space a missing generic word weighs less than a missing name, and an absent word more than a present one', async () => {
  const db = migratedDb();
  const index = sqlitePassageIndex(db, PRIOR);
  await seedDocument(db, index, 'tienda', 'faq.md', [
    { text: 'El envío a Canarias cuesta 149 € y tarda entre 15 y 20 días laborables.', headings: ['Envíos'] },
    { text: 'La garantía de los muebles es de tres años desde la entrega.', headings: ['Garantía'] },
  ]);
  const [tiempo, nextcloud, envio] = await index.idf(queryTermGroups('tiempo Nextcloud envío'), 'tienda');
  assert.ok(tiempo! < nextcloud!, 'a word general Spanish uses everywhere is a weak sign of a missing topic');
  assert.ok(envio! < nextcloud!);
  // Without a space (the whole index, as before), the prior is not used.
  const [t0, n0] = await index.idf(queryTermGroups('tiempo Nextcloud'));
  assert.equal(t0, n0);
});
