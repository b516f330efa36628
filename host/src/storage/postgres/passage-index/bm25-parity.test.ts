// Search parity (issue #25 item 3): the same documents indexed through the storage port on SQLite (FTS5) and on
// PostgreSQL (the engine's own postings), the project's question sets asked of both. FTS5's candidates (MATCH with
// bm25), the engine's final top 10 (candidates re-ranked by the space's own statistics) and the engine's answers must
// be the same passages with the same scores on both backends.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SqliteDatabase } from '../../database.js';
import { ExtractiveAnswerer } from '../../../cerebro/answer/extractive.js';
import { type MatchedRow, PassageIndex } from '../../../cerebro/index/passage-index.js';
import { Retriever } from '../../../cerebro/index/retriever.js';
import { sqlitePassageIndex } from '../../../cerebro/testing/seed.js';
import { MATCH_SQL } from '../../sqlite/passage-index/match-plan-sql.js';
import { matchExpression } from '../../../cerebro/index/fts-query.js';
import { spaceKey } from '../../space-key.js';
import { queryTermGroups } from '../../../cerebro/text/analyzer.js';
import { migratedDb } from '../../../cerebro/testing/fixtures.js';
import { PG_HOST_MIGRATIONS } from '../migrations/index.js';
import { applyPgMigrations } from '../pg-migrator.js';
import { createTestDatabase, pgUnavailable, type TestDatabase } from '../testing/pg-test-database.js';
import { type ParityDocument, paritySpaces, prepareFile } from '../testing/parity-corpus.js';
import { prepareDocument } from '../../../cerebro/extract/prepare.js';
import { fts5Tokens } from './fts5-tokens.js';
import { matchFts } from './pg-bm25-matcher.js';
import { spaceTermPassages, termPassages } from './pg-fts-index.js';
import { PgPassageIndexRepository } from './pg-passage-index-repository.js';
import { sqliteSteps } from '../../sqlite/passage-index/sqlite-job-steps.js';

const skip = (await pgUnavailable()) ?? false;
const { spaces, missing } = paritySpaces();
if (missing.length) console.log(`# paridad BM25: corpus ausentes (${missing.join(', ')}), se comparan los demás`);

const K = 10;
const DEPTH = 20;
/** space-stats.ts counts a term's passages up to this many. */
const COUNT_CAP = 1000;
/** Questions compared at once. */
const CONCURRENT = 4;
/** Questions of each space also answered by the extractive engine on both backends. */
const ANSWERED = 40;

const relativeDiff = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), 1e-300);

describe('BM25 parity between SQLite FTS5 and PostgreSQL', { skip }, () => {
  let pg: TestDatabase;
  let sqlite: SqliteDatabase;
  /** The engine's passage index over each backend's repository. */
  let index: PassageIndex;
  let pgIndex: PassageIndex;
  let pgRepo: PgPassageIndexRepository;
  const documents = new Map<string, ParityDocument[]>();
  const figures = {
    expressions: 0,
    rows: 0,
    identical: 0,
    finalLists: 0,
    finalIdentical: 0,
    answers: 0,
    answersIdentical: 0,
    maxRelDiff: 0,
  };

  before(async () => {
    pg = await createTestDatabase(4);
    await applyPgMigrations(pg.pool, [{ owner: 'host', migrations: PG_HOST_MIGRATIONS }]);
    sqlite = migratedDb();
    index = sqlitePassageIndex(sqlite);
    pgRepo = new PgPassageIndexRepository(pg.pool);
    pgIndex = new PassageIndex(pgRepo);
    let ord = 0;
    for (const { space, files } of spaces) {
      const docs: ParityDocument[] = [];
      for (const file of files) docs.push(await prepareFile(file, ord++, prepareDocument));
      documents.set(space, docs);
      for (const doc of docs) await store(space, doc);
    }
  });

  after(async () => {
    console.log(`# paridad BM25: ${JSON.stringify(figures)}`);
    sqlite?.close();
    await pg?.drop();
  });

  /** Stores a document on both backends through their repositories: the same passages get the same ids. */
  async function store(space: string, doc: ParityDocument): Promise<void> {
    const now = new Date(0).toISOString();
    const docRow = [space, doc.id, doc.name, 'text/html', 'p', 'ready', doc.lang, doc.passages.length, now];
    sqlite
      .prepare(
        `INSERT INTO cerebro_documents (space, id, name, media_type, path, state, lang, passages, created_at, updated_at, queued_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(...docRow, now, now);
    await pg.pool.query(
      `INSERT INTO cerebro_documents (space, id, name, media_type, path, state, lang, passages, created_at, updated_at, queued_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $9)`,
      docRow,
    );
    const ids = await index.repository.replaceDocument(space, doc.id, doc.passages);
    assert.deepEqual(await pgIndex.repository.replaceDocument(space, doc.id, doc.passages), ids, 'the same ids');
  }

  /** Compares FTS5's rows of one expression with PostgreSQL's; returns whether they are identical. */
  async function compareExpression(expression: string): Promise<void> {
    const want = sqlite.prepare(MATCH_SQL).all(expression, DEPTH) as MatchedRow[];
    const got = await matchFts(pg.pool, expression, DEPTH);
    figures.expressions++;
    figures.rows += want.length;
    assert.deepEqual(
      got.map((r) => r.id),
      want.map((r) => r.id),
      `mismas filas y orden para ${expression}`,
    );
    want.forEach((w, i) => {
      const d = relativeDiff(w.rank, got[i]!.rank);
      figures.maxRelDiff = Math.max(figures.maxRelDiff, d);
      assert.ok(d <= 1e-9, `bm25 ${got[i]!.rank} frente a FTS5 ${w.rank} en ${expression}`);
    });
    figures.identical++;
  }

  /** One question: FTS5's candidates and the engine's final top 10 on both backends. */
  async function compareQuestion(space: string, question: string): Promise<void> {
    const groups = queryTermGroups(question, await index.languages(space));
    assert.deepEqual(await pgIndex.languages(space), await index.languages(space));
    const all = groups.length > 1 ? matchExpression(space, groups, true) : null;
    const any = matchExpression(space, groups);
    for (const expression of [all, any]) if (expression) await compareExpression(expression);
    const want = await index.searchGroups(space, groups, K);
    const got = await pgIndex.searchGroups(space, groups, K);
    figures.finalLists++;
    assert.deepEqual(
      got.map((h) => h.id),
      want.map((h) => h.id),
      `mismo top ${K} para «${question}»`,
    );
    want.forEach((w, i) => assert.ok(relativeDiff(w.bm25, got[i]!.bm25) <= 1e-9));
    const [wantIdf, gotIdf] = [await index.idf(groups, space), await pgIndex.idf(groups, space)];
    wantIdf.forEach((w, i) => assert.ok(relativeDiff(w, gotIdf[i]!) <= 1e-12, `idf de «${question}»`));
    figures.finalIdentical++;
  }

  /** Every question of a space, a few at a time (PostgreSQL answers them on several connections). */
  async function compareQuestions(space: string, questions: readonly string[]): Promise<void> {
    for (let i = 0; i < questions.length; i += CONCURRENT) {
      await Promise.all(questions.slice(i, i + CONCURRENT).map((q) => compareQuestion(space, q)));
    }
  }

  test("the postings are FTS5's: the same vocabulary, with the same passage counts and occurrences", () => {
    return (async () => {
      // The space tokens are FTS5 terms of the space_key column; PostgreSQL keeps them in cerebro_fts_rows.
      const keys = new Set(spaces.map((s) => spaceKey(s.space)));
      const vocab = (
        sqlite.prepare('SELECT term, doc, cnt FROM cerebro_fts_vocab').all() as {
          term: string;
          doc: number;
          cnt: number;
        }[]
      ).filter((v) => !keys.has(v.term));
      const pgVocab = await pg.pool.query<{ term: string; doc: number; cnt: number }>(
        'SELECT term, count(*) AS doc, sum(heading_tf + body_tf) AS cnt FROM cerebro_fts_postings GROUP BY term',
      );
      const byTerm = new Map(pgVocab.rows.map((r) => [r.term, r]));
      assert.equal(byTerm.size, vocab.length, 'mismo número de términos');
      for (const v of vocab) {
        const p = byTerm.get(v.term);
        assert.ok(p, `término ${v.term}`);
        assert.equal(p.doc, v.doc, v.term);
        assert.equal(p.cnt, v.cnt, v.term);
      }
      assert.ok(vocab.length > 1000, `vocabulario de ${vocab.length} términos`);
      assert.deepEqual(fts5Tokens('núm. 3 Ärger'), ['núm', '3', 'ärger']);
    })();
  });

  test("each space's term counts, passage total and length sample are those the engine reads from SQLite", async () => {
    const count = sqlite.prepare(
      `SELECT count(*) FROM (SELECT rowid FROM cerebro_fts WHERE cerebro_fts MATCH ? LIMIT ${COUNT_CAP})`,
    );
    for (const { space, questions } of spaces) {
      const languages = await index.languages(space);
      const terms = new Set(questions.slice(0, 40).flatMap((q) => queryTermGroups(q, languages).flat()));
      for (const t of terms) {
        const q = `{space_key} : "${spaceKey(space)}" AND {heading body} : "${t}"`;
        assert.equal(await spaceTermPassages(pg.pool, spaceKey(space), t, COUNT_CAP), count.pluck().get(q), t);
        const doc = (sqlite.prepare('SELECT doc FROM cerebro_fts_vocab WHERE term = ?').pluck().get(t) as number) ?? 0;
        assert.equal(await termPassages(pg.pool, t), doc, t);
      }
      const sample = sqlite.prepare('SELECT id FROM cerebro_passages WHERE space = ? LIMIT 400').pluck().all(space);
      const pgSample = await pg.pool.query(
        'SELECT id FROM cerebro_passages WHERE space = $1 ORDER BY document_id COLLATE "C", ord, id LIMIT 400',
        [space],
      );
      assert.deepEqual(
        pgSample.rows.map((r) => r.id),
        sample,
      );
    }
  });

  test('the question sets: identical candidates, scores and top 10 on both backends', async () => {
    assert.ok(spaces.length > 0, 'ningún corpus instalado');
    for (const { space, questions } of spaces) await compareQuestions(space, questions);
    assert.ok(figures.finalLists >= 100, `${figures.finalLists} preguntas comparadas`);
  });

  test('the extractive engine gives the same answers, from the same sources, on both backends', async () => {
    const answerers = [index, pgIndex].map((i) => new ExtractiveAnswerer(i, new Retriever(i)));
    for (const { space, questions } of spaces)
      for (const question of questions.slice(0, ANSWERED)) {
        const [want, got] = await Promise.all(answerers.map((a) => a.answer({ space, question })));
        figures.answers++;
        assert.equal(got!.found, want!.found, question);
        assert.equal(got!.text, want!.text, question);
        assert.deepEqual(
          got!.sources.map((s) => [s.passageId, s.score]),
          want!.sources.map((s) => [s.passageId, s.score]),
          question,
        );
        figures.answersIdentical++;
      }
    assert.ok(figures.answers >= ANSWERED, `${figures.answers} respuestas comparadas`);
  });

  test('after a document is deleted and another hidden, still identical (FTS5 keeps deleted rows in N and avgdl)', async () => {
    const [first] = spaces;
    assert.ok(first);
    const [gone, hidden] = documents.get(first.space)!;
    assert.ok(gone && hidden);
    sqlite.transaction(() => sqliteSteps(index.repository.jobSteps(null)).deleteDocument(first.space, gone.id))();
    await pgRepo.transaction((db) => pgRepo.steps.deleteDocument(db, first.space, gone.id));
    sqlite.transaction(() => sqliteSteps(index.repository.jobSteps(null)).hideDocument(first.space, hidden.id))();
    await pgRepo.transaction((db) => pgRepo.steps.hideDocument(db, first.space, hidden.id));
    await compareQuestions(first.space, first.questions.slice(0, 60));
  });
});
