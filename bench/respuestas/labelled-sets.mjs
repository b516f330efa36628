// The labelled questions answer-or-decline is trained and checked on, each corpus indexed into a space of its own:
// the shared QA set (../shared/qa: debian-handbook and four business documents; see its README) and the project's own
// set (preguntas.json, over the Debian reference and the FreedomBox manual). Used by the calibration script.
import Database from 'better-sqlite3';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPORA, cerebro, indexCorpora, openDb } from '../support/cerebro-corpus.mjs';
import { QA_DIR, corpusDocuments, normalise } from './shared-qa.mjs';

/** The shared set's preguntas.json (where shared-qa.mjs finds the set: CEREBRO_QA_DIR or beside the checkout). */
const sharedSet = () => JSON.parse(readFileSync(join(QA_DIR, 'preguntas.json'), 'utf8'));

/**
 * Every labelled question: `{ id, corpus, split, question, kind, answerable, keys, every, turn }`. `every`: the answer
 * must hold every key (shared set) or one of them (project set). A conversation turn has `turn.earlier`, the
 * questions asked before it in its conversation.
 */
export function labelledQuestions() {
  const shared = sharedSet();
  const own = JSON.parse(readFileSync(new URL('preguntas.json', import.meta.url), 'utf8'));
  const out = shared.preguntas.map((q) => ({
    id: q.id,
    corpus: q.corpus,
    split: q.split,
    question: q.pregunta,
    kind: q.tipo,
    answerable: q.respondible,
    keys: q.claves ?? [],
    every: true,
    turn: null,
  }));
  for (const c of shared.conversaciones) {
    c.turnos.forEach((t, i) =>
      out.push({
        id: `${c.id}#${i + 1}`,
        corpus: c.corpus,
        split: c.split,
        question: t.pregunta,
        kind: null,
        answerable: t.respondible,
        keys: t.claves ?? [],
        every: true,
        turn: { conversation: c.id, index: i, earlier: c.turnos.slice(0, i).map((p) => p.pregunta) },
      }),
    );
  }
  own.con_respuesta.forEach((q, i) =>
    out.push({
      id: `propia-${i + 1}`,
      corpus: 'propio',
      split: 'dev',
      question: q.pregunta,
      kind: q.tipo ?? null,
      answerable: true,
      keys: q.claves,
      every: false,
      turn: null,
    }),
  );
  own.sin_respuesta.forEach((q, i) =>
    out.push({
      id: `propia-sin-${i + 1}`,
      corpus: 'propio',
      split: 'dev',
      question: q.pregunta,
      kind: null,
      answerable: false,
      keys: [],
      every: false,
      turn: null,
    }),
  );
  return out;
}

/** Whether an answer text holds the keys of a labelled question. */
export function holdsKeys(text, q) {
  const t = normalise(text);
  const has = (k) => t.includes(normalise(k));
  return q.every ? q.keys.every(has) : q.keys.some(has);
}

/**
 * One engine with every corpus indexed, each in the space named after it. With `CEREBRO_SETS_CACHE` (a file path),
 * the indexed database is saved there the first time and reused after (delete it when indexing changes).
 */
export async function indexedSets(engineOptions = {}) {
  const cacheFile = process.env.CEREBRO_SETS_CACHE;
  if (cacheFile && existsSync(cacheFile)) {
    const db = new Database(readFileSync(cacheFile));
    db.pragma('foreign_keys = ON');
    const engine = new cerebro.CerebroEngine({ db, ...engineOptions });
    engine.start();
    return { db, engine };
  }
  const db = openDb();
  const engine = new cerebro.CerebroEngine({ db, ...engineOptions });
  engine.start();
  const shared = sharedSet();
  for (const [corpus, description] of Object.entries(shared.corpus)) {
    for (const f of corpusDocuments(corpus, description)) engine.documents.submit(corpus, f);
  }
  await engine.documents.idle();
  await indexCorpora(engine, 'propio', [CORPORA.guia, CORPORA.freedombox]);
  if (cacheFile) writeFileSync(cacheFile, db.serialize());
  return { db, engine };
}
